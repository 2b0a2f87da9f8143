package store

import (
	"database/sql/driver"
	"fmt"
	"iter"
	"slices"
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
	f := review.FilterFields{Agent: agent, WorkItem: wi, Phase: phase}
	if n, ok := args[4].(int64); ok {
		i := int(n)
		f.Iteration = &i
	}
	if args[6] != nil {
		final := text(args[6])
		f.Final = &final
	}
	names, err := toolNameSeq(text(args[5]))
	if err != nil {
		return nil, err
	}
	f.ToolNames = names
	if review.FilterMatches(pattern, f) {
		return int64(1), nil
	}
	return int64(0), nil
}

// text returns a TEXT argument as a string ("" for NULL or another type).
// A volatile argument's string points into SQLite's memory: it must not
// outlive the call.
func text(v driver.Value) string {
	s, _ := v.(string)
	return s
}

// toolNameSeq yields the names of a tool_names value. The names are plain
// in almost every session, and then cut out of the value as they are
// yielded, without a JSON decoder or a copy.
func toolNameSeq(s string) (iter.Seq[string], error) {
	if s == "" || s == "[]" {
		return nil, nil
	}
	inner, ok := strings.CutPrefix(s, `["`)
	if inner, ok2 := strings.CutSuffix(inner, `"]`); ok && ok2 && !strings.ContainsRune(inner, '\\') {
		return func(yield func(string) bool) {
			for rest := inner; ; {
				name, after, more := strings.Cut(rest, `","`)
				if !yield(name) || !more {
					return
				}
				rest = after
			}
		}, nil
	}
	var names []string
	if err := json.Unmarshal([]byte(s), &names); err != nil {
		return nil, fmt.Errorf("tool names: %w", err)
	}
	return slices.Values(names), nil
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
