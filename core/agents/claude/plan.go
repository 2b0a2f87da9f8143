package claude

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// Claude Code keeps its plan with tools: TodoWrite writes the whole list
// ({"todos":[{"content","status","activeForm"}]}); the task tools of
// 2.1.x add one task at a time (TaskCreate {"subject","description",
// "activeForm"}, numbered from 1 in the order created) and change one
// (TaskUpdate {"taskId","status","subject"}; status "deleted" removes it).
// Each call is followed by a plan update with the whole list, as the
// droid, codex and kimi parsers emit theirs.

// claudeTask is one task of the task tools' list.
type claudeTask struct {
	id    string
	entry event.PlanEntry
}

// planEntries returns the plan a tool call sets, or nil when it is no plan
// tool (or its input holds no plan).
func (s *claudeStream) planEntries(name string, input json.RawMessage) []event.PlanEntry {
	switch name {
	case "TodoWrite":
		return agents.TodoEntries(input)
	case "TaskCreate":
		var in struct {
			Subject     string `json:"subject"`
			Description string `json:"description"`
		}
		if json.Unmarshal(input, &in) != nil {
			return nil
		}
		s.taskSeq++
		s.tasks = append(s.tasks, claudeTask{id: strconv.Itoa(s.taskSeq),
			entry: event.PlanEntry{Content: strings.Clone(cmp.Or(in.Subject, in.Description)), Status: "pending"}})
	case "TaskUpdate":
		var in struct {
			TaskID  json.RawMessage `json:"taskId"`
			Status  string          `json:"status"`
			Subject string          `json:"subject"`
		}
		if json.Unmarshal(input, &in) != nil {
			return nil
		}
		id := strings.Trim(string(in.TaskID), `"`)
		i := slices.IndexFunc(s.tasks, func(t claudeTask) bool { return t.id == id })
		if i < 0 {
			return nil
		}
		switch {
		case in.Status == "deleted":
			s.tasks = slices.Delete(s.tasks, i, i+1)
		case in.Status != "":
			s.tasks[i].entry.Status = strings.Clone(in.Status)
		}
		if in.Subject != "" && in.Status != "deleted" {
			s.tasks[i].entry.Content = strings.Clone(in.Subject)
		}
	default:
		return nil
	}
	entries := make([]event.PlanEntry, len(s.tasks))
	for i, t := range s.tasks {
		entries[i] = t.entry
	}
	return entries
}
