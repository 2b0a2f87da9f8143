package summary

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExplainLine holds the rules that pick a failed call's explaining
// line, on the outputs of the tools agents run most: the verdict a tool
// prints last wins over its noise, a harness's prefix is never the reason.
func TestExplainLine(t *testing.T) {
	t.Parallel()
	jest := `> demo@1.0.0 test
> jest

 FAIL  ./greet.test.js
  ● greets

    expect(received).toBe(expected) // Object.is equality

    Expected: "hello"
    Received: "hi"

      3 | test('greets', () => {
      4 |   expect(greet()).toBe('hello');
        |                   ^

      at Object.toBe (greet.test.js:4:19)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        0.512 s
Ran all test suites.
npm error Lifecycle script ` + "`test`" + ` failed with error:
npm error code 1
npm error path /tmp/demo
npm error workspace demo@1.0.0
npm error location /tmp/demo
npm error command failed
npm error command sh -c jest`
	pytest := `============================= test session starts ==============================
collected 1 item

test_x.py F                                                              [100%]

=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(1, 2) == 4
E       assert 3 == 4

test_x.py:5: AssertionError
=========================== short test summary info ============================
FAILED test_x.py::test_add - assert 3 == 4
============================== 1 failed in 0.01s ===============================`
	goTest := "--- FAIL: TestAdd (0.00s)\n    add_test.go:8: Add(1, 2) = 3, want 4\nFAIL\nexit status 1\nFAIL\texample.com/m\t0.002s"
	traceback := `Traceback (most recent call last):
  File "x.py", line 5, in <module>
    main()
  File "x.py", line 3, in main
    raise ValueError("bad input: 42")
ValueError: bad input: 42`
	cargo := "   Compiling x v0.1.0 (/tmp/x)\nerror[E0308]: mismatched types\n --> src/main.rs:2:18\n  |\n2 |     let n: i32 = \"one\";\n  |            ---   ^^^^^ expected `i32`, found `&str`\n\nFor more information about this error, try `rustc --explain E0308`.\nerror: could not compile `x` (bin \"x\") due to 1 previous error"
	long := strings.Repeat("PASS src/ok.test.js\n", 3000) + " FAIL  src/bad.test.js\n  ● adds\n\n    Expected: 3\n    Received: 4\n\nTests: 1 failed, 3000 passed"
	for _, tc := range []struct {
		name          string
		output, error string
		want          string
	}{
		{"claude's exit prefix is not the reason", "", "Exit code 2\nls: cannot access '/definitely/not/here': No such file or directory",
			"ls: cannot access '/definitely/not/here': No such file or directory"},
		{"an error repeated in the output is one line", "Exit code 1\ncat: x: No such file or directory", "Exit code 1\ncat: x: No such file or directory",
			"cat: x: No such file or directory"},
		{"jest under npm: the assertion, not npm's noise", jest, "", `Expected: "hello" / Received: "hi"`},
		{"a long run's verdict at its end", long, "", "Expected: 3 / Received: 4"},
		{"pytest: the failed test", pytest, "", "FAILED test_x.py::test_add - assert 3 == 4"},
		{"go test: got and want", goTest, "", "add_test.go:8: Add(1, 2) = 3, want 4"},
		{"python: the exception", traceback, "", "ValueError: bad input: 42"},
		{"cargo: the first compiler error, not the summary", cargo, "", "error[E0308]: mismatched types"},
		{"tsc", "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n", "",
			"src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."},
		{"a panic", "goroutine 1 [running]:\nmain.main()\n", "panic: runtime error: index out of range [3] with length 2",
			"panic: runtime error: index out of range [3] with length 2"},
		{"the error wins over an equal output line", "File not found.", "File not found: /w/missing-notes.txt", "File not found: /w/missing-notes.txt"},
		{"permission", "", "bash: ./deploy.sh: Permission denied", "bash: ./deploy.sh: Permission denied"},
		{"droid's trailer is not the reason", "make: *** [Makefile:3: all] Error 2\n[Process exited with code 2]", "", "make: *** [Makefile:3: all] Error 2"},
		{"nothing says why: the last line", "step one\nstep two", "", "step two"},
		{"only noise", "", "Exit code 1", ""},
		{"one long line cut inside a character", "error: " + strings.Repeat("é", explainTail/2) + "x", "",
			strings.Repeat("é", explainTail/2-1) + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := explainLine(tc.output, tc.error); got != tc.want {
				t.Errorf("explainLine = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPatternWordsAreOnlyAShortcut: every line a pattern matches holds
// one of its words, so that skipping a line that holds none changes no
// answer; checked over every line of the recorded streams and histories
// (each JSON string's own lines, as an output holds them) and the
// fuzzer's lines (FuzzPatternWords).
func TestPatternWordsAreOnlyAShortcut(t *testing.T) {
	t.Parallel()
	var files []string
	for _, g := range []string{"../../testdata/streams/*/*", "../../testdata/history/*/*", "../../testdata/histories/*/*/*/*/*/*",
		"../../testdata/histories/*/*/*/*/*/*/*"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	lines, matched := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a folder
		}
		for l := range strings.SplitSeq(strings.ReplaceAll(string(b), `\n`, "\n"), "\n") {
			lines++
			matched += checkPatternWords(t, strings.TrimSpace(l))
		}
	}
	if lines < 5000 || matched < 100 {
		t.Fatalf("%d lines read, %d pattern matches: the test proved nothing", lines, matched)
	}
}

// checkPatternWords fails when a pattern matches an ASCII line holding
// none of its words; it returns how many patterns matched.
func checkPatternWords(t *testing.T, l string) int {
	t.Helper()
	ps := append(slices.Clone(explainNoise), explainWeak...)
	for _, r := range explainRules {
		ps = append(ps, r.re)
	}
	var lo lower
	low, ascii := lo.of(l)
	n := 0
	for _, p := range ps {
		if !p.re.MatchString(l) {
			continue
		}
		n++
		if ascii && !p.match(l, low, true) {
			t.Errorf("%s matches %q, which holds none of its words", p.re, l)
		}
	}
	return n
}

func FuzzPatternWords(f *testing.F) {
	for _, s := range []string{"Error: boom", "got 1, want 2", "FAIL", "exit status 2", "ok", "no ſuch file", "KEY",
		"npm ERR! code 1", "make[2]: *** [x] Error 1", "Traceback (most recent call last):", "  Expected: 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		checkPatternWords(t, l)
	})
}
