package store

import (
	"database/sql/driver"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"modernc.org/sqlite"

	"github.com/agentsift/sift/core/review"
)

// The inbox's `/` filter (review.FilterMatches) is a Go function SQLite
// calls per row, over the summary's columns and its tool names, which the
// store keeps as a column of their own (tool_names, a JSON array of the
// distinct names) so that a filter never reads the tool calls.
//
// The functions are registered with the driver once, for every connection
// it opens: sift_filter(pattern, agent, work item, phase, iteration, tool
// names, final message) is 1 when the session passes the filter, and
// sift_tool_names(tool calls JSON) returns the tool_names of a
// tool_calls_json value.
func init() {
	sqlite.MustRegisterFunction("sift_filter", &sqlite.FunctionImpl{
		NArgs: 7, Deterministic: true, VolatileArgs: true, Scalar: filterFunc,
	})
	sqlite.MustRegisterFunction("sift_tool_names", &sqlite.FunctionImpl{
		NArgs: 1, Deterministic: true, VolatileArgs: true, Scalar: toolNamesFunc,
	})
}

// filterSQL is the filter's condition on a summary s; its one argument is
// the pattern.
const filterSQL = `sift_filter(?, s.agent_kind, s.work_item_id, s.phase, s.iteration, s.tool_names, s.final_assistant_message)`

// filterFunc implements sift_filter. Its arguments are volatile (they
// point into SQLite's memory for the duration of the call), so nothing
// of them is kept.
func filterFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	pattern, agent, wi, phase := text(args[0]), text(args[1]), text(args[2]), text(args[3])
	var iter *int
	if n, ok := args[4].(int64); ok {
		i := int(n)
		iter = &i
	}
	var final *string
	if args[6] != nil {
		f := text(args[6])
		final = &f
	}
	names, err := decodeToolNames(text(args[5]))
	if err != nil {
		return nil, err
	}
	if review.FilterMatches(pattern, agent, review.Label(wi, phase, iter), names, final) {
		return int64(1), nil
	}
	return int64(0), nil
}

// text returns a TEXT or BLOB argument as a string ("" for NULL).
func text(v driver.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// decodeToolNames reads a tool_names value. The names are plain in almost
// every session, and then split without a JSON decoder.
func decodeToolNames(s string) ([]string, error) {
	inner, ok := strings.CutPrefix(s, `["`)
	if inner, ok2 := strings.CutSuffix(inner, `"]`); ok && ok2 && !strings.ContainsRune(inner, '\\') {
		return strings.Split(inner, `","`), nil
	}
	if s == "" || s == "[]" {
		return nil, nil
	}
	var names []string
	if err := json.Unmarshal([]byte(s), &names); err != nil {
		return nil, fmt.Errorf("tool names: %w", err)
	}
	return names, nil
}

// toolNamesFunc implements sift_tool_names.
func toolNamesFunc(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	var raw []byte
	switch v := args[0].(type) {
	case string:
		raw = []byte(v)
	case []byte:
		raw = v
	}
	names, err := toolNames(raw)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// toolNames returns the distinct tool names of a tool_calls_json value
// (possibly packed), in the order of their first call.
func toolNames(calls []byte) ([]string, error) {
	if len(calls) == 0 {
		return []string{}, nil
	}
	data, err := unpackJSON(calls)
	if err != nil {
		return nil, fmt.Errorf("tool names: %w", err)
	}
	var list []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("tool names: %w", err)
	}
	names := []string{}
	seen := make(map[string]bool, 8)
	for _, c := range list {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	return names, nil
}
