package export

import "fmt"

// CheckTrajectory checks the rules of ATIF a JSON Schema cannot state:
// step ids run 1, 2, 3, … in order, and every observation result that
// names a source call names a tool call of its own step. Embedded
// subagent trajectories are checked too.
func CheckTrajectory(t *Trajectory) error {
	for i := range t.Steps {
		s := &t.Steps[i]
		if s.StepID != i+1 {
			return fmt.Errorf("step %d: step_id %d, want %d", i+1, s.StepID, i+1)
		}
		if s.Observation == nil {
			continue
		}
		for _, r := range s.Observation.Results {
			if r.SourceCallID == "" {
				continue
			}
			found := false
			for _, c := range s.ToolCalls {
				found = found || c.ToolCallID == r.SourceCallID
			}
			if !found {
				return fmt.Errorf("step %d: observation of %q, which is no tool call of the step", s.StepID, r.SourceCallID)
			}
		}
	}
	if subs, ok := t.Extra[subagentsKey].([]*Trajectory); ok {
		for _, sub := range subs {
			if err := CheckTrajectory(sub); err != nil {
				return fmt.Errorf("subagent %s: %w", sub.SessionID, err)
			}
		}
	}
	return nil
}
