package store

import (
	"bytes"
	"database/sql/driver"
	"fmt"
	"slices"

	json "github.com/goccy/go-json"
	"modernc.org/sqlite"
)

// The search's tool: filter (search_query.go) reads the tool names of a
// session from a table of their own (session_filter.tool_names, a JSON
// array of the distinct names), so that it never reads the tool calls.
//
// sift_tool_names(tool calls JSON) returns the tool_names of a
// tool_calls_json value; migration 0007 fills the table with it. It is
// registered with the driver once, for every connection it opens.
func init() {
	sqlite.MustRegisterFunction("sift_tool_names", &sqlite.FunctionImpl{
		NArgs: 1, Deterministic: true, VolatileArgs: true, Scalar: toolNamesFunc,
	})
}

// filterRowSQL writes the tool names row of one written summary: its key
// and its tool names, which the import's reader cut out of its calls.
const filterRowSQL = `INSERT INTO session_filter (work_item_id, file_name, tool_names) VALUES (?, ?, ?)
	ON CONFLICT (work_item_id, file_name) DO UPDATE SET tool_names = excluded.tool_names`

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
	names, err := toolNamesJSON(raw)
	if err != nil {
		return nil, err
	}
	return names, nil
}

// toolNamesJSON is the tool_names of a tool_calls_json value.
func toolNamesJSON(calls []byte) (string, error) {
	names, err := toolNames(calls)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(names)
	return string(b), err
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
