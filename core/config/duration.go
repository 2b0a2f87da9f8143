package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written in YAML as a Go duration ("30s",
// "48h") or in days ("30d"), or as a bare number of seconds.
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats the duration, in days when it is a whole number of them.
func (d Duration) String() string {
	const day = 24 * time.Hour
	if t := time.Duration(d); t >= day && t%day == 0 {
		return strconv.FormatInt(int64(t/day), 10) + "d"
	}
	return time.Duration(d).String()
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = v
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// ParseDuration reads "30s", "1h30m", "14d" or a number of seconds.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return Duration(n * float64(time.Second)), nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil {
			return 0, fmt.Errorf("bad duration %q", s)
		}
		return Duration(n * float64(24*time.Hour)), nil
	}
	t, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad duration %q (use 30s, 48h or 30d)", s)
	}
	return Duration(t), nil
}
