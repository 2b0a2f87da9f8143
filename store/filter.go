package store

import (
	"bytes"
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
// store keeps in a table of their own (session_filter.tool_names, a JSON
// array of the distinct names) so that a filter never reads the tool
// calls.
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
const filterSQL = `sift_filter(?, s.agent_kind, s.work_item_id, s.phase, s.iteration,
	(SELECT f.tool_names FROM session_filter f WHERE f.work_item_id = s.work_item_id AND f.file_name = s.file_name),
	s.final_assistant_message)`

// filterRowSQL writes the filter's row of one written summary.
const filterRowSQL = `INSERT INTO session_filter (work_item_id, file_name, tool_names)
	SELECT work_item_id, file_name, sift_tool_names(tool_calls_json) FROM agent_stream_summaries
	WHERE work_item_id = ? AND file_name = ?
	ON CONFLICT (work_item_id, file_name) DO UPDATE SET tool_names = excluded.tool_names`

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

// appendNew appends a name the list does not hold yet.
func appendNew(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
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

// nameKey starts a tool call's name in tool_calls_json. The calls are
// flat objects (summary.ToolCall has no nested ones) whose only key
// "name" is this one; inside a JSON string every quote is escaped, so
// these bytes are found only where a name starts.
var nameKey = []byte(`"name":"`)

// toolNames returns the distinct tool names of a tool_calls_json value
// (possibly packed), in the order of their first call. It cuts the names
// out of the JSON rather than decoding the calls: an import reads every
// session's calls once more for them.
func toolNames(calls []byte) ([]string, error) {
	data, err := unpackJSON(calls)
	if err != nil {
		return nil, fmt.Errorf("tool names: %w", err)
	}
	if len(data) > 0 && data[0] != '[' {
		return nil, fmt.Errorf("tool names: the tool calls are not a JSON list")
	}
	names := []string{}
	for {
		i := bytes.Index(data, nameKey)
		if i < 0 {
			return names, nil
		}
		data = data[i+len(nameKey)-1:] // from the name's opening quote
		end, escaped := 1, false
		for ; end < len(data) && data[end] != '"'; end++ {
			if data[end] == '\\' {
				escaped = true
				end++
			}
		}
		if end >= len(data) {
			return nil, fmt.Errorf("tool names: a name is not closed")
		}
		if escaped {
			var name string
			if err := json.Unmarshal(data[:end+1], &name); err != nil {
				return nil, fmt.Errorf("tool names: %w", err)
			}
			names = appendNew(names, name)
		} else if raw := data[1:end]; !slices.ContainsFunc(names, func(n string) bool { return n == string(raw) }) {
			names = append(names, string(raw)) // a copy: data may be SQLite's
		}
		data = data[end+1:]
	}
}
