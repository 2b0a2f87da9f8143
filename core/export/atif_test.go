package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/core/textsafe"
)

// streamFiles lists every recorded stream in testdata/streams, all
// harness folders.
func streamFiles(t testing.TB) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join("..", "..", "testdata", "streams", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range all {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d streams in testdata/streams, want them all", len(out))
	}
	return out
}

// exportFile exports one stream file as a trajectory.
func exportFile(t testing.TB, path string) *Trajectory {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := StreamTrajectory(f, summary.Options{}, Findings{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tr
}

// checkValid validates a trajectory and the subagent trajectories it
// embeds against the schema and CheckTrajectory, and returns its JSON.
func checkValid(t testing.TB, tr *Trajectory) []byte {
	t.Helper()
	data, err := textsafe.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	sch := atifSchema(t)
	if err := validate(t, sch, data); err != nil {
		t.Fatalf("trajectory %s is not valid ATIF-v1.4: %v", tr.SessionID, err)
	}
	if err := CheckTrajectory(tr); err != nil {
		t.Fatalf("trajectory %s: %v", tr.SessionID, err)
	}
	if !bytes.Contains(data, []byte(`"schema_version":"ATIF-v1.4"`)) {
		t.Fatalf("trajectory %s does not name ATIF-v1.4", tr.SessionID)
	}
	subs, _ := tr.Extra[subagentsKey].([]*Trajectory)
	for _, s := range subs {
		checkValid(t, s)
	}
	return data
}

func TestATIFEveryStreamValidates(t *testing.T) {
	for _, path := range streamFiles(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			tr := exportFile(t, path)
			checkValid(t, tr)
			if len(tr.Steps) == 0 {
				t.Fatal("no steps")
			}
		})
	}
}

func TestATIFSubagentReferencedFromItsCall(t *testing.T) {
	tr := exportFile(t, filepath.Join("..", "..", "testdata", "streams", "claude", "claude-orchestrator-task-subagent-reserialized.jsonl"))
	checkValid(t, tr)
	const task = "toolu_01EMBD2Ez8pt8LWj5ovow1mU"
	var ref *SubagentRef
	for _, s := range tr.Steps {
		if s.Observation == nil {
			continue
		}
		for _, r := range s.Observation.Results {
			if r.SourceCallID == task && len(r.SubagentTrajectoryRef) == 1 {
				ref = &r.SubagentTrajectoryRef[0]
			}
		}
	}
	if ref == nil {
		t.Fatal("the Task call's observation does not reference the subagent's trajectory")
	}
	subs := tr.Extra[subagentsKey].([]*Trajectory)
	if len(subs) != 1 || subs[0].SessionID != ref.SessionID || ref.TrajectoryPath != "#/extra/subagent_trajectories/0" {
		t.Fatalf("ref %+v, subagents %d", ref, len(subs))
	}
	sub := subs[0]
	if sub.Steps[0].Source != SourceUser || !strings.Contains(sub.Steps[0].Message, "Python files") {
		t.Fatalf("the subagent's first step is %+v, want its prompt", sub.Steps[0])
	}
	// The subagent's own calls are its own, correlated in its steps.
	var calls, results int
	for _, s := range sub.Steps {
		calls += len(s.ToolCalls)
		if s.Observation != nil {
			results += len(s.Observation.Results)
		}
	}
	if calls < 5 || results < 5 {
		t.Fatalf("subagent: %d calls, %d results", calls, results)
	}
	for _, s := range tr.Steps {
		for _, c := range s.ToolCalls {
			if c.FunctionName == "Glob" {
				t.Fatalf("a subagent's call is in the main trajectory: %+v", c)
			}
		}
	}
}

func TestATIFStepsMetricsAndFindings(t *testing.T) {
	tr := exportFile(t, filepath.Join("..", "..", "testdata", "streams", "claude", "e2e-claude-code-2.1.332-scripted.jsonl"))
	checkValid(t, tr)
	if tr.Agent.Name != "claude" || tr.Agent.Version != "2.1.332" {
		t.Fatalf("agent %+v", tr.Agent)
	}
	var user, agent, metered, failed int
	for _, s := range tr.Steps {
		switch s.Source {
		case SourceUser:
			user++
		case SourceAgent:
			agent++
			if s.Metrics != nil && s.Metrics.PromptTokens != nil {
				metered++
			}
		}
		for _, c := range s.ToolCalls {
			if !json.Valid(c.Arguments) || c.Arguments[0] != '{' {
				t.Fatalf("arguments %s", c.Arguments)
			}
		}
		if tc, ok := s.Extra["sift_tool_calls"].([]map[string]any); ok {
			for _, c := range tc {
				if c["success"] == false {
					failed++
				}
			}
		}
	}
	// The prompt was an argument of the CLI, not a line of its stream.
	if user != 0 || agent < 2 || metered == 0 || failed == 0 {
		t.Fatalf("user %d, agent %d, metered %d, failed calls %d", user, agent, metered, failed)
	}
	fm := tr.FinalMetrics
	if fm == nil || fm.TotalPromptTokens == nil || *fm.TotalPromptTokens != 4500 || *fm.TotalCompletionTokens != 120 || *fm.TotalCachedTokens != 2200 {
		t.Fatalf("final metrics %+v", fm)
	}
	sift := tr.Extra["sift"].(map[string]any)
	if sift["outcome"] != "completed" || sift["source"] != "stream" {
		t.Fatalf("sift extra %v", sift)
	}
	if _, ok := sift["flags"].([]summary.Flag); !ok {
		t.Fatalf("flags %T", sift["flags"])
	}
}

func TestATIFAbsentFieldsStayAbsent(t *testing.T) {
	// copilot's plaintext stream prints no tokens and no times.
	tr := exportFile(t, filepath.Join("..", "..", "testdata", "streams", "copilot", "firaga-plaintext-stdout-stderr-stats.txt"))
	data := checkValid(t, tr)
	for _, k := range []string{`"metrics"`, `"timestamp"`, `"total_cost_usd"`, `"total_prompt_tokens"`} {
		if bytes.Contains(data, []byte(k)) {
			t.Errorf("%s present in a trajectory whose harness printed none", k)
		}
	}
}

func TestATIFRedactsAndStaysValid(t *testing.T) {
	stream := `{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w","tools":["Bash"]}
{"type":"assistant","session_id":"s1","message":{"id":"msg_1","role":"assistant","model":"m","content":[{"type":"text","text":"token ghp_abcdefghijklmnopqrstuvwxyz0123456789 \u001b]52;c;aGk=\u0007"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo <script>alert(1)</script> AKIAQ3EGRZLXN4PT7WVY"}}]}}
{"type":"user","session_id":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"password=hunter2hunter2"}]}}
`
	tr, err := StreamTrajectory(strings.NewReader(stream), summary.Options{}, Findings{})
	if err != nil {
		t.Fatal(err)
	}
	data := checkValid(t, tr)
	for _, secret := range []string{"ghp_abcdefghij", "AKIAQ3EGRZLXN4PT7WVY", "hunter2", "\x1b"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("exported %q", secret)
		}
	}
	if !bytes.Contains(data, []byte("[REDACTED:")) {
		t.Errorf("no redaction marker in %s", data)
	}
}

func TestATIFExamplesRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "atif", "examples", "*.json"))
	if len(paths) < 3 {
		t.Fatalf("found %d examples", len(paths))
	}
	sch := atifSchema(t)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			in, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(t, sch, in); err != nil {
				t.Fatalf("example is not valid: %v", err)
			}
			var tr Trajectory
			d := json.NewDecoder(bytes.NewReader(in))
			d.DisallowUnknownFields()
			if err := d.Decode(&tr); err != nil {
				t.Fatalf("load: %v", err)
			}
			if err := CheckTrajectory(&tr); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(&tr)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := jsonValue(t, in), jsonValue(t, out); !reflect.DeepEqual(a, b) {
				t.Fatalf("lost in the round trip:\n in: %s\nout: %s", in, out)
			}
		})
	}
}

func TestCheckTrajectoryCatchesWhatTheSchemaCannot(t *testing.T) {
	tr := &Trajectory{Steps: []Step{{StepID: 1, Source: SourceUser}, {StepID: 3, Source: SourceAgent}}}
	if err := CheckTrajectory(tr); err == nil {
		t.Fatal("step ids 1, 3 passed")
	}
	c := "out"
	tr = &Trajectory{Steps: []Step{{StepID: 1, Source: SourceAgent, Observation: &Observation{Results: []ObservationResult{{SourceCallID: "x", Content: &c}}}}}}
	if err := CheckTrajectory(tr); err == nil {
		t.Fatal("an observation of an unknown call passed")
	}
}
