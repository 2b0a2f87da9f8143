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

// lineFiller sets every string, byte slice, map key and value, and
// interface value of a value, at any depth, to bytes of a line, as a parser
// decoding with decodeLine leaves them. The values it puts in an interface
// (Event.Extra) are the ones parsers put there: strings, raw JSON, byte
// slices, and maps and lists of them, besides numbers and booleans.
type lineFiller struct {
	t    *testing.T
	line []byte
	n    int
}

// next returns a new string that refers to the line.
func (f *lineFiller) next() string {
	s := "s" + strconv.Itoa(f.n)
	f.n++
	start := len(f.line)
	if start+len(s)+2 > cap(f.line) {
		f.t.Fatal("the line is too short for the event model: grow it")
	}
	f.line = append(f.line, s...)
	return unsafe.String(&f.line[start], len(s))
}

// nextJSON returns new bytes of the line that hold a JSON string.
func (f *lineFiller) nextJSON() []byte {
	s := f.next()
	start := len(f.line)
	f.line = append(f.line, `"`+s+`"`...)
	return f.line[start:len(f.line):len(f.line)]
}

// anyValues are the values put in each interface-valued map.
func (f *lineFiller) anyValues() []any {
	return []any{
		f.next(),
		json.RawMessage(f.nextJSON()),
		f.nextJSON(),
		map[string]any{f.next(): f.next(), f.next(): json.RawMessage(f.nextJSON())},
		[]any{f.next(), map[string]any{f.next(): []any{f.next()}}},
		int64(7), 1.5, true,
	}
}

// fill fills v, a settable value; path names it in a failure.
func (f *lineFiller) fill(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.next())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(3)
	case reflect.Float64:
		v.SetFloat(2.5)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(1, 0).UTC()))
			return
		}
		for i := range v.NumField() {
			fd := v.Type().Field(i)
			if !fd.IsExported() {
				f.t.Fatalf("%s.%s: an unexported field of the event model: teach lineFiller and owner.own about it", path, fd.Name)
			}
			f.fill(v.Field(i), path+"."+fd.Name)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem(), path)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes(f.nextJSON())
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			f.fill(v.Index(i), path+"["+strconv.Itoa(i)+"]")
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if v.Type().Elem().Kind() == reflect.Interface {
			for _, e := range f.anyValues() {
				k := reflect.New(v.Type().Key()).Elem()
				f.fill(k, path+"[key]")
				v.SetMapIndex(k, reflect.ValueOf(e))
			}
			return
		}
		for range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k, path+"[key]")
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, path+"[value]")
			v.SetMapIndex(k, e)
		}
	default:
		f.t.Fatalf("%s: a field of kind %s in the event model: teach lineFiller and owner.own about it", path, v.Kind())
	}
}

// intoLine lists every string and byte slice reachable from v whose bytes
// lie in line, by path.
func intoLine(v reflect.Value, line []byte, path string, found *[]string) {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(line)))
	in := func(p unsafe.Pointer, n int) bool {
		return n > 0 && uintptr(p)-lo < uintptr(len(line))
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); in(unsafe.Pointer(unsafe.StringData(s)), len(s)) {
			*found = append(*found, path)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			if b := v.Bytes(); in(unsafe.Pointer(unsafe.SliceData(b)), len(b)) {
				*found = append(*found, path)
			}
			return
		}
		for i := range v.Len() {
			intoLine(v.Index(i), line, path+"["+strconv.Itoa(i)+"]", found)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				intoLine(v.Field(i), line, path+"."+v.Type().Field(i).Name, found)
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			intoLine(v.Elem(), line, path, found)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			key := it.Key()
			name := path + "[" + strconv.Quote(key.String()) + "]"
			intoLine(key, line, name+" (key)", found)
			intoLine(it.Value(), line, name, found)
		}
	}
}

// TestOwnerCopiesEveryField fills every string, byte slice, map key and
// value and interface value of an event, at any depth, with bytes of a
// line, lets the owner own the event, and checks that nothing in it still
// points into the line, and that overwriting the line then leaves it as it
// was: a field added to the event model that own does not copy fails it,
// and a field of a kind the filler does not know fails it too.
func TestOwnerCopiesEveryField(t *testing.T) {
	t.Parallel()
	f := &lineFiller{t: t, line: make([]byte, 0, 1<<16)}
	var ev event.Event
	f.fill(reflect.ValueOf(&ev).Elem(), "Event")
	var before []string
	intoLine(reflect.ValueOf(&ev).Elem(), f.line, "Event", &before)
	if len(before) < 40 {
		t.Fatalf("only %d fields were filled from the line: %v", len(before), before)
	}
	want, err := json.Marshal(&ev)
	if err != nil {
		t.Fatal(err)
	}
	var o owner
	o.setLine(f.line)
	o.own(&ev)
	var after []string
	intoLine(reflect.ValueOf(&ev).Elem(), f.line, "Event", &after)
	if len(after) > 0 {
		t.Errorf("own left %d of %d fields pointing into the line: %v", len(after), len(before), after)
	}
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
