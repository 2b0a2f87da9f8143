package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"
)

// The largest values Validate accepts. They are far beyond any sensible
// setting and far below the values whose durations or byte counts would
// overflow int64 (106,752 days; 1<<43 MiB).
const (
	// RetainedDaysMax bounds RetainedDays and the review tiers in days:
	// 100 years.
	RetainedDaysMax = 36500
	// EventsHoursMax bounds Review.FullEventsHours: 100 years in hours.
	EventsHoursMax = RetainedDaysMax * 24
	// TotalSizeMbMax bounds MaxTotalSizeMb: 1 PiB.
	TotalSizeMbMax = 1 << 30
	// FileSizeMbMax bounds MaxFileSizeMb: 1 TiB.
	FileSizeMbMax = 1 << 20
	// StallSecondsMax bounds StallThresholdSeconds: a year.
	StallSecondsMax = 365 * 24 * 3600
	// ClaimMinutesMax bounds ClaimMinutes: a year.
	ClaimMinutesMax = 365 * 24 * 60
)

// Days is n days as a duration. It saturates rather than wrapping: a
// count whose duration would pass the largest time.Duration (from 106,752
// days) is that largest duration, and a negative count is 0.
func Days(n int) time.Duration { return times(n, 24*time.Hour) }

// Hours is n hours as a duration, saturating like Days.
func Hours(n int) time.Duration { return times(n, time.Hour) }

// times is n units, clamped to [0, the largest duration].
func times(n int, unit time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	if int64(n) > math.MaxInt64/int64(unit) {
		return math.MaxInt64
	}
	return time.Duration(n) * unit
}

// MiB is n mebibytes in bytes, clamped to [0, math.MaxInt64]: shifting
// 1<<44 MiB left by 20 would wrap to 0.
func MiB(n int) int64 {
	if n <= 0 {
		return 0
	}
	if int64(n) > math.MaxInt64>>20 {
		return math.MaxInt64
	}
	return int64(n) << 20
}

// Seconds is s seconds as a duration, clamped to [0, the largest
// duration]; NaN is 0. Converting an out-of-range float to an integer is
// not defined in Go, so the bounds are checked first.
func Seconds(s float64) time.Duration {
	switch {
	case math.IsNaN(s) || s <= 0:
		return 0
	case s >= float64(math.MaxInt64)/float64(time.Second):
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}

// checkIntegers rejects a value of an integer key that is not an integer
// literal. yaml.v3 decodes `1.5` into an int as 1 and `-.inf` as the
// smallest int64 without a word; sift says which key holds what instead.
// The keys come from the yaml tags of Config's integer fields, nested
// structs included.
func checkIntegers(data []byte) error {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return nil // the decode proper reports it
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	return checkMapping(doc.Content[0], reflect.TypeFor[Config](), "")
}

// checkMapping checks the integer keys of one mapping node against the
// struct type it decodes into; prefix names the enclosing key.
func checkMapping(n *yaml.Node, t reflect.Type, prefix string) error {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, n.Content[i+1]
		if val.Kind == yaml.AliasNode && val.Alias != nil {
			val = val.Alias
		}
		f, ok := fieldByTag(t, key)
		if !ok {
			continue // KnownFields reports it
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int64:
			if val.Kind == yaml.ScalarNode && val.ShortTag() != "!!int" && val.ShortTag() != "!!null" {
				return fmt.Errorf("%s%s must be a whole number (got %s, line %d)", prefix, key, val.Value, val.Line)
			}
		case reflect.Struct:
			if err := checkMapping(val, f.Type, prefix+key+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldByTag finds the field of struct t whose yaml tag is key.
func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("yaml") == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// finite reports whether f is neither NaN nor infinite.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
