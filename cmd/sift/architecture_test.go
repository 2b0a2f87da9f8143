package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is sift's module path.
const module = "github.com/agentsift/sift"

// archRow is one row of the README's architecture table: the packages it
// is about and the packages of sift's own they may import (nil with all
// set: everything).
type archRow struct {
	pkgs    []string
	imports []string
	all     bool
}

// TestArchitecture holds the README's architecture table against the
// code: every package of the module falls under a row (its own, or the
// row of the package it is under), and imports, of the module's packages,
// only those its row names (or its own subpackages). Direct imports only,
// the product's files only (tests may import what they test with).
func TestArchitecture(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	root := moduleRoot(t)
	rows := architectureTable(t, filepath.Join(root, "README.md"))
	pkgs := modulePackages(t, root)
	for _, p := range pkgs {
		r, under := rowOf(rows, p.path)
		if r == nil {
			t.Errorf("%s is in no row of the README's architecture table", p.path)
			continue
		}
		if r.all {
			continue
		}
		for _, imp := range p.imports {
			if imp == under || strings.HasPrefix(imp, under+"/") || slices.Contains(r.imports, imp) {
				continue
			}
			t.Errorf("%s imports %s, which its row of the README's architecture table does not name", p.path, imp)
		}
	}
	// SQL is the store's, and the one reader of the agent CLIs' SQLite
	// histories' (core/historydb, which reads a copy): no other package
	// below the program opens a database.
	for _, p := range pkgs {
		if len(p.sql) > 0 && p.path != "store" && !strings.HasPrefix(p.path, "store/") &&
			p.path != "core/historydb" && !strings.HasPrefix(p.path, "core/historydb/") && !strings.HasPrefix(p.path, "cmd/") {
			t.Errorf("%s imports %v: only store and core/historydb use SQL", p.path, p.sql)
		}
	}
	// A harness is its folder, registered by core/agents/all: core/agents
	// imports none of its folders, and no package but core/agents/all
	// imports a harness's (a folder may import the Claude-shaped stream's,
	// core/agents/claude, when its row names it).
	for _, p := range pkgs {
		for _, imp := range p.imports {
			if p.path == "core/agents" && strings.HasPrefix(imp, "core/agents/") {
				t.Errorf("core/agents imports %s: the harnesses register with it (core/agents/all)", imp)
			}
			if harnessFolder(imp) && p.path != "core/agents/all" && !harnessFolder(p.path) {
				t.Errorf("%s imports the harness folder %s: only core/agents/all does", p.path, imp)
			}
		}
	}
	// Only the program and its application layer launch agents.
	for _, r := range rows {
		for _, p := range r.pkgs {
			if p != "cmd/sift" && p != "cmd/sift/internal/app" && (r.all || slices.Contains(r.imports, "core/capture")) {
				t.Errorf("the architecture table lets %s import core/capture", p)
			}
		}
	}
	// The rules the table's rows spell out, said once more where a
	// careless edit of the table would lose them.
	for pkg, banned := range map[string][]string{
		"tui":        {"core/agents", "core/capture", "core/redact"},
		"core/event": {"core/agents", "core/summary"},
	} {
		r, _ := rowOf(rows, pkg)
		for _, b := range banned {
			if r != nil && slices.Contains(r.imports, b) {
				t.Errorf("the architecture table lets %s import %s", pkg, b)
			}
		}
	}
}

// TestMainStartsNoGoroutine: package main parses flags, calls the
// application layer (internal/app) and prints; the layer starts what runs
// in the background.
func TestMainStartsNoGoroutine(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				t.Errorf("%s: package main starts a goroutine; the application layer (internal/app) does", fset.Position(g.Pos()))
			}
			return true
		})
	}
}

// moduleRoot is the folder of the module's go.mod.
func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// modPackage is a package of the module and its imports of the module's
// packages, both relative to the module ("core/event", "store").
type modPackage struct {
	path    string
	imports []string
	// sql are its imports of an SQL driver or database/sql.
	sql []string
}

// modulePackages lists the module's packages with `go list`.
func modulePackages(t *testing.T, root string) []modPackage {
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []modPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		mp := modPackage{path: strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")}
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				mp.imports = append(mp.imports, rel)
			}
			if imp == "database/sql" || strings.HasPrefix(imp, "modernc.org/sqlite") || strings.HasPrefix(imp, "github.com/jackc/pgx") {
				mp.sql = append(mp.sql, imp)
			}
		}
		pkgs = append(pkgs, mp)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

var tick = regexp.MustCompile("`([^`]+)`")

// architectureTable reads the table under the README's "## Architecture".
func architectureTable(t *testing.T, readme string) []archRow {
	f, err := os.Open(readme)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []archRow
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Architecture"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("README architecture row of %d cells: %s", len(cells), line)
		}
		r := archRow{all: strings.TrimSpace(cells[2]) == "everything"}
		for _, m := range tick.FindAllStringSubmatch(cells[0], -1) {
			r.pkgs = append(r.pkgs, m[1])
		}
		for _, m := range tick.FindAllStringSubmatch(cells[2], -1) {
			r.imports = append(r.imports, m[1])
		}
		rows = append(rows, r)
	}
	if len(rows) < 10 {
		t.Fatalf("the README's architecture table has %d rows", len(rows))
	}
	return rows
}

// rowOf is the row of a package: its own, else the row of the nearest
// package it is under; under is that row's package. A row's package
// ending in a placeholder (core/agents/<harness>) is each folder right
// under its prefix that has no row of its own; under is then the folder.
func rowOf(rows []archRow, pkg string) (*archRow, string) {
	var best *archRow
	under, weight := "", 0
	for i := range rows {
		for _, p := range rows[i].pkgs {
			if prefix, _, ok := strings.Cut(p, "<"); ok {
				if rest, ok := strings.CutPrefix(pkg, prefix); ok && rest != "" && !strings.Contains(rest, "/") &&
					2*len(pkg) > weight {
					best, under, weight = &rows[i], pkg, 2*len(pkg)
				}
				continue
			}
			if (pkg == p || strings.HasPrefix(pkg, p+"/")) && 2*len(p)+1 > weight {
				best, under, weight = &rows[i], p, 2*len(p)+1
			}
		}
	}
	return best, under
}

// harnessFolder reports whether a package is a harness's folder
// (core/agents/<harness>), not core/agents/all or the tests' helpers.
func harnessFolder(pkg string) bool {
	name, ok := strings.CutPrefix(pkg, "core/agents/")
	return ok && !strings.Contains(name, "/") && name != "all" && name != "agentstest"
}
