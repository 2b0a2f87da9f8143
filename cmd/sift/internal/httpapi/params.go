package httpapi

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// paramError is a bad query parameter: its code and a message for people.
type paramError struct {
	code Code
	msg  string
}

func (e *paramError) Error() string { return e.msg }

// parseLimit reads the limit parameter: DefaultLimit when absent, else an
// integer from 1 to MaxLimit.
func parseLimit(q url.Values) (int, error) {
	v, ok := q["limit"]
	if !ok {
		return DefaultLimit, nil
	}
	if len(v) == 1 {
		if n, err := strconv.Atoi(v[0]); err == nil && n >= 1 && n <= MaxLimit {
			return n, nil
		}
	}
	return 0, &paramError{CodeInvalidLimit, fmt.Sprintf("limit must be one integer from 1 to %d", MaxLimit)}
}

// parseOffset reads the offset parameter: 0 when absent, else a
// non-negative integer.
func parseOffset(q url.Values) (int, error) {
	v, ok := q["offset"]
	if !ok {
		return 0, nil
	}
	if len(v) == 1 {
		if n, err := strconv.Atoi(v[0]); err == nil && n >= 0 {
			return n, nil
		}
	}
	return 0, &paramError{CodeInvalidParameter, "offset must be one non-negative integer"}
}

// parseBool reads a boolean flag parameter: false when absent; "true",
// "1" or an empty value (?flagged) are true, "false" and "0" false.
func parseBool(q url.Values, name string) (bool, error) {
	v, ok := q[name]
	if !ok {
		return false, nil
	}
	if len(v) == 1 {
		switch v[0] {
		case "", "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
	}
	return false, &paramError{CodeInvalidParameter, name + " must be true or false"}
}

// parseDuration reads a duration parameter such as 24h or 7d (days are
// accepted for convenience); 0 when absent.
func parseDuration(q url.Values, name string) (time.Duration, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	bad := &paramError{CodeInvalidParameter, name + " must be a positive duration such as 90m, 24h or 7d"}
	if n := len(v); n > 1 && v[n-1] == 'd' {
		days, err := strconv.Atoi(v[:n-1])
		if err != nil || days <= 0 || days > 100000 {
			return 0, bad
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, bad
	}
	return d, nil
}
