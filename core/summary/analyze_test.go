package summary

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentsift/sift/core/agents"
)

// Analyze parses a stream and summarizes it, as ingest.Analyze does (the
// one parse of a stream lives in core/ingest, which imports this package:
// its tests cannot import it back). The summarizer's tests read real
// streams through it.
func Analyze(r io.Reader, opt Options) (*Summary, []ReviewEvent, error) {
	b := NewBuilder(opt)
	st, err := agents.Default().Parse(r, agents.Options{Agent: agents.Kind(opt.Agent), Borrow: true}, b.Add)
	if err != nil {
		return nil, nil, err
	}
	sum, rev := b.Finish(st)
	return sum, rev, nil
}

// AnalyzeFile is Analyze of the file at path, with its file name filled.
func AnalyzeFile(path string, opt Options) (*Summary, []ReviewEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open stream: %w", err)
	}
	defer f.Close()
	s, rev, err := Analyze(f, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	s.FileName = filepath.Base(path)
	return s, rev, nil
}
