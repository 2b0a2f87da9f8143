package agents

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/agentsift/sift/core/event"
)

// lineFiller sets every string, byte slice and map key of a value to bytes
// of a line, as a parser decoding with decodeLine leaves them.
type lineFiller struct {
	line []byte
	n    int
}

// next returns a new string that refers to the line.
func (f *lineFiller) next() string {
	s := "s" + strconv.Itoa(f.n)
	f.n++
	start := len(f.line)
	f.line = append(f.line, s...)
	return unsafe.String(&f.line[start], len(s))
}

func (f *lineFiller) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.next())
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		if v.Type().Elem().Kind() == reflect.Struct {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem())
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			s := `"` + f.next() + `"`
			start := len(f.line)
			f.line = append(f.line, s...)
			v.SetBytes(f.line[start:len(f.line):len(f.line)])
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			f.fill(v.Index(i))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k)
			e := reflect.New(v.Type().Elem()).Elem()
			if e.Kind() == reflect.Interface {
				e.Set(reflect.ValueOf(f.next()))
				v.SetMapIndex(k, e)
				k2 := reflect.New(v.Type().Key()).Elem()
				f.fill(k2)
				raw := reflect.New(reflect.TypeFor[json.RawMessage]()).Elem()
				f.fill(raw)
				v.SetMapIndex(k2, raw)
				continue
			}
			v.SetMapIndex(k, e)
		}
	}
}

// TestOwnerCopiesEveryField fills every string, byte slice and map key of
// an event with bytes of a line, lets the owner own the event, overwrites
// the line and checks that the event did not change: a field added to the
// event model that own does not copy fails it.
func TestOwnerCopiesEveryField(t *testing.T) {
	t.Parallel()
	f := &lineFiller{line: make([]byte, 0, 1<<16)}
	var ev event.Event
	f.fill(reflect.ValueOf(&ev).Elem())
	want, err := json.Marshal(&ev)
	if err != nil {
		t.Fatal(err)
	}
	var o owner
	o.setLine(f.line)
	o.own(&ev)
	for i := range f.line {
		f.line[i] = 'X'
	}
	got, err := json.Marshal(&ev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("event changed with the line:\n got %s\nwant %s", got, want)
	}
}
