package pricing

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestCatalogProvenance(t *testing.T) {
	t.Parallel()
	tb := Default()
	if tb.Source != "npm:@pydantic/genai-prices" || tb.Version == "" || tb.Licence != "MIT" {
		t.Errorf("source %q version %q licence %q", tb.Source, tb.Version, tb.Licence)
	}
	if !strings.HasPrefix(tb.Integrity, "sha512-") || !strings.HasSuffix(tb.Tarball, "-"+tb.Version+".tgz") {
		t.Errorf("integrity %q tarball %q", tb.Integrity, tb.Tarball)
	}
	for _, d := range []string{tb.Date, tb.Published} {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			t.Errorf("date %q: %v", d, err)
		}
	}
	providers := map[string]bool{}
	for _, m := range tb.Models() {
		providers[m.Provider] = true
	}
	for _, p := range []string{"anthropic", "openai", "google", "moonshotai", "aws", "openrouter", "github-copilot", "cursor"} {
		if !providers[p] {
			t.Errorf("no models of provider %s", p)
		}
	}
	if n := len(tb.Models()); n < 1000 {
		t.Errorf("only %d models", n)
	}
}

// streamModels returns the model names the recorded streams and agent
// histories in testdata name.
func streamModels(t *testing.T) []string {
	t.Helper()
	re := regexp.MustCompile(`"model(?:Id)?"\s*:\s*"([^"]+)"`)
	seen := map[string]bool{}
	walk := func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			for _, m := range re.FindAllSubmatch(sc.Bytes(), -1) {
				seen[string(m[1])] = true
			}
		}
		return sc.Err()
	}
	for _, dir := range []string{"../../testdata/streams", "../../testdata/history"} {
		if err := filepath.WalkDir(dir, walk); err != nil {
			t.Fatal(err)
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func TestStreamModelsPriced(t *testing.T) {
	t.Parallel()
	tb := Default()
	// Placeholders, not models: cursor's router and claude's local error
	// turns.
	placeholders := map[string]bool{"Auto": true, "<synthetic>": true}
	models := streamModels(t)
	if len(models) < 10 {
		t.Fatalf("found only %d model names in testdata/streams: %v", len(models), models)
	}
	for _, name := range models {
		m, mt, ok := tb.Resolve(name)
		if placeholders[name] {
			if ok {
				t.Errorf("%s: priced as %s/%s", name, m.Provider, m.ID)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no price", name)
			continue
		}
		p := m.Price()
		if p.Input <= 0 || p.Output <= 0 || p.Source == "" {
			t.Errorf("%s: incomplete price %+v", name, p)
		}
		t.Logf("%-28s %s/%s by %s (%s)", name, m.Provider, m.ID, mt.Rule, mt.Source)
	}
}

// TestHandTableStillPriced checks that every model of the hand-typed
// table the catalog replaced is still priced, and pins where the catalog
// disagrees with it (the catalog wins).
func TestHandTableStillPriced(t *testing.T) {
	t.Parallel()
	tb := Default()
	old := map[string]Price{
		"claude-opus-5-5": {4, 20, 0.2, 5, 0, ""}, "claude-opus-5": {5, 25, 0.5, 6.25, 0, ""},
		"claude-sonnet-5-5": {2, 10, 0.1, 2.5, 0, ""}, "claude-sonnet-5": {2, 10, 0.2, 2.5, 0, ""},
		"claude-haiku-5-5": {0.1, 0.5, 0.01, 0.125, 0, ""}, "claude-opus-4-6": {5, 25, 0.5, 6.25, 0, ""},
		"claude-sonnet-4-6": {3, 15, 0.3, 3.75, 0, ""}, "claude-opus-4-5": {5, 25, 0.5, 6.25, 0, ""},
		"claude-opus-4-1": {15, 75, 1.5, 18.75, 0, ""}, "claude-opus-4": {15, 75, 1.5, 18.75, 0, ""},
		"claude-sonnet-4-5": {3, 15, 0.3, 3.75, 0, ""}, "claude-sonnet-4": {3, 15, 0.3, 3.75, 0, ""},
		"claude-haiku-4-5": {1, 5, 0.1, 1.25, 0, ""}, "claude-3-5-haiku": {0.8, 4, 0.08, 1, 0, ""},
		"gpt-5-codex": {1.25, 10, 0.125, 1.25, 0, ""}, "gpt-5": {1.25, 10, 0.125, 1.25, 0, ""},
		"gpt-5-mini": {0.25, 2, 0.025, 0.25, 0, ""}, "codex-mini-latest": {1.5, 6, 0.375, 1.5, 0, ""},
		"gemini-3-flash-preview": {0.5, 3, 0.05, 0.5, 0, ""}, "gemini-2-5-pro": {1.25, 10, 0.125, 1.25, 0, ""},
		"gemini-2-5-flash": {0.3, 2.5, 0.03, 0.3, 0, ""}, "qwen3-coder-plus": {1, 5, 0.2, 1.25, 0, ""},
		"kimi-k2-thinking": {0.6, 2.5, 0.15, 0.6, 0, ""}, "kimi-k2-turbo-preview": {2.4, 10, 0.6, 2.4, 0, ""},
		"kimi-k2": {0.6, 2.5, 0.15, 0.6, 0, ""}, "kimi-k2-5": {0.6, 3, 0.1, 0.6, 0, ""},
	}
	// Where the catalog's price differs from the hand-typed one.
	differs := map[string]Price{
		// moonshotai/kimi-k2 lists no cache-read price: reads are input.
		"kimi-k2":               {0.57, 2.3, 0.57, 0.57, 0, ""},
		"kimi-k2-turbo-preview": {1.15, 8, 0.15, 1.15, 0, ""},
	}
	for name, p := range old {
		m, _, ok := tb.Resolve(name)
		if !ok {
			t.Errorf("%s: no longer priced", name)
			continue
		}
		got := m.Price()
		got.Source, got.CacheWrite1h = "", 0
		want := p
		if d, ok := differs[name]; ok {
			want = d
		}
		if got != want {
			t.Errorf("%s (%s/%s) = %+v, want %+v", name, m.Provider, m.ID, got, want)
		}
	}
}

// TestSupplementNotInCatalog fails when a refresh brings a supplement
// model into the catalog: its entry in supplement.json should then go.
func TestSupplementNotInCatalog(t *testing.T) {
	t.Parallel()
	tb := Default()
	for _, e := range tb.cat.supplement.models {
		m, mt, ok := tb.Resolve(e.model.ID)
		if !ok || mt.Source != FromSupplement || m.ID != e.model.ID {
			t.Errorf("%s resolves to %s/%s (%s): drop it from supplement.json", e.model.ID, m.Provider, m.ID, mt.Source)
		}
		if e.model.Origin == "" {
			t.Errorf("%s: no reference", e.model.ID)
		}
	}
}

func BenchmarkParseCatalog(b *testing.B) {
	for b.Loop() {
		if _, err := parseCatalog(embeddedCatalog, embeddedSupplement); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	tb := Default()
	for _, name := range []string{"claude-sonnet-4-5-20250929", "gpt-5-codex", "us.anthropic.claude-opus-4-5-20251101-v1:0", "dashscope/qwen3-coder-plus", "no-such-model"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				tb.Resolve(name)
			}
		})
	}
}
