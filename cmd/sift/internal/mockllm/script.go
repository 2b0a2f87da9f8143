package mockllm

import (
	"time"
)

// Usage is the token count a step reports. Input includes the cached share,
// as the Summary counts it; each protocol maps it onto its own fields.
type Usage struct {
	Input  int64
	Cached int64
	Output int64
}

// Step is one model response of the script.
type Step struct {
	// Text is what the model says before any tool call.
	Text string
	// Shell, when set, is a command the model asks the shell tool to run.
	Shell string
	// ShellDescription is passed where the tool wants a description.
	ShellDescription string
	// Tool and Args, when Tool is set, call that tool with Args verbatim
	// instead of the shell tool (a CLI whose shell tool reports a non-zero
	// exit as a success fails another way, e.g. reading a missing file).
	Tool string
	Args map[string]any
	// Delay is how long the server waits before it answers this step.
	Delay time.Duration
	// Usage is the token count reported for this response.
	Usage Usage
	// Fail, when set, answers the step with this HTTP status and the
	// vendor's error body carrying FailMessage instead of a response.
	// Use a status the CLIs do not retry (400).
	Fail        int
	FailMessage string
}

// Script is a scripted conversation: step i answers the request whose
// conversation already holds i tool results. The last step should have no
// Shell: it is the final answer.
type Script struct {
	Steps []Step
}

// Secrets the default script's first tool prints. They are built at run
// time by the shell from two halves so that the command line itself holds
// no complete secret: what the test can check is that the tool's output is
// redacted.
const (
	// GitHubToken is a fake classic GitHub personal access token.
	GitHubToken = "ghp_" + githubTokenRest
	// AWSKeyID is a fake AWS access key id.
	AWSKeyID = "AKIA" + awsKeyRest

	githubTokenRest = "Zq8T4mNcY2vR7wXkLp3sB9dF6hJ1gA5eU0iO"
	awsKeyRest      = "Z7Q3X9M2B5N8P4L6"
)

// SecretCommand prints GitHubToken and AWSKeyID, joined by the shell from
// their prefixes and the rest.
const SecretCommand = `A=ghp_; B=AKIA; echo "token ${A}` + githubTokenRest + ` key ${B}` + awsKeyRest + `"`

// Default script texts, so tests can assert them.
const (
	FirstText  = "Let me look at the environment first."
	SecondText = "Now let me check the missing directory."
	FinalText  = "All done: the environment is set up and the directory is missing."
	// FailingCommand exits non-zero (ls of a missing path exits 2).
	FailingCommand = "ls /nonexistent-sift-e2e-dir"
	// MissingFile is a relative path that does not exist in the CLI's
	// working folder, for scripts that fail by reading it.
	MissingFile = "missing-notes.txt"
)

// StallDelay is the pause before the default script's final answer.
const StallDelay = 2500 * time.Millisecond

// DefaultScript is the conversation every end-to-end test plays.
func DefaultScript() Script {
	return Script{Steps: []Step{
		{
			Text:             FirstText,
			Shell:            SecretCommand,
			ShellDescription: "Print the environment tokens",
			Usage:            Usage{Input: 1200, Cached: 0, Output: 40},
		},
		{
			Text:             SecondText,
			Shell:            FailingCommand,
			ShellDescription: "List a missing directory",
			Usage:            Usage{Input: 1500, Cached: 1000, Output: 30},
		},
		{
			Text:  FinalText,
			Delay: StallDelay,
			Usage: Usage{Input: 1800, Cached: 1200, Output: 50},
		},
	}}
}

// FailByReading returns the script with its failing shell step replaced by
// a call of the file-read tool readTool (argument key arg) on MissingFile.
// The Gemini CLI needs it: its shell tool reports a non-zero exit as a
// success.
func (s Script) FailByReading(readTool, arg string) Script {
	steps := append([]Step(nil), s.Steps...)
	for i, st := range steps {
		if st.Shell == FailingCommand {
			steps[i].Shell = ""
			steps[i].Tool = readTool
			steps[i].Args = map[string]any{arg: MissingFile}
		}
	}
	return Script{Steps: steps}
}

// FailAt returns the script with step i replaced by an HTTP failure with
// the given status and message; the steps after it are never reached.
func (s Script) FailAt(i, status int, msg string) Script {
	steps := append([]Step(nil), s.Steps[:i+1]...)
	steps[i] = Step{Fail: status, FailMessage: msg}
	return Script{Steps: steps}
}

// Total is the sum of the script's usage.
func (s Script) Total() Usage {
	var u Usage
	for _, st := range s.Steps {
		u.Input += st.Usage.Input
		u.Cached += st.Usage.Cached
		u.Output += st.Usage.Output
	}
	return u
}

// step returns the step for a conversation holding n tool results, and
// false past the end of the script.
func (s Script) step(n int) (Step, bool) {
	if n < 0 || n >= len(s.Steps) {
		return Step{}, false
	}
	return s.Steps[n], true
}
