// Command gen refreshes sift's embedded price catalog (core/pricing's
// catalog.json) from a pinned version of the npm package
// @pydantic/genai-prices. `go generate ./core/pricing` runs it.
//
// It asks the registry for the version's tarball address, integrity
// (sha512), publication time and licence (`npm view`), fetches the
// tarball (`npm pack`), checks its sha512 against the registry's, runs
// node on the package's bundled data (dist/index.cjs) to dump it as JSON,
// converts it to the snapshot form (only the token rates sift charges)
// and writes it with its provenance. Nothing is fetched at run time:
// sift reads only the committed snapshot.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// pkg is the catalog's npm package.
const pkg = "@pydantic/genai-prices"

// dumpScript prints the package's bundled provider list as JSON: the
// package resolves waitForUpdate with it when no update source is set.
const dumpScript = `const m = require(process.argv[1]);
m.waitForUpdate().then((p) => process.stdout.write(JSON.stringify(p)));`

func main() {
	version := flag.String("version", "", "package version to read (required; pinned in core/pricing's go:generate line)")
	out := flag.String("o", "catalog.json", "snapshot file to write")
	date := flag.String("date", time.Now().UTC().Format(time.DateOnly), "the snapshot's date")
	node := flag.String("node", "node", "node executable")
	npm := flag.String("npm", "npm", "npm executable")
	flag.Parse()
	if err := run(*version, *out, *date, *node, *npm); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

// registryMeta is what `npm view PKG@VERSION --json` says of a version.
type registryMeta struct {
	Version  string            `json:"version"`
	License  string            `json:"license"`
	Homepage string            `json:"homepage"`
	Time     map[string]string `json:"time"`
	Dist     struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
	} `json:"dist"`
}

func run(version, out, date, node, npm string) error {
	if version == "" {
		return errors.New("-version is required")
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return fmt.Errorf("-date: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	spec := pkg + "@" + version
	view, err := command(ctx, "", npm, "view", spec, "--json")
	if err != nil {
		return err
	}
	var meta registryMeta
	if err := json.Unmarshal(view, &meta); err != nil {
		return fmt.Errorf("npm view %s: %w", spec, err)
	}
	if meta.Version != version || meta.Dist.Tarball == "" || meta.Dist.Integrity == "" {
		return fmt.Errorf("npm view %s: no tarball or integrity for version %q", spec, meta.Version)
	}
	tmp, err := os.MkdirTemp("", "sift-prices-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := command(ctx, tmp, npm, "pack", spec, "--pack-destination", tmp, "--silent"); err != nil {
		return err
	}
	tgz, err := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if err != nil || len(tgz) != 1 {
		return fmt.Errorf("npm pack %s: want one tarball in %s, found %d", spec, tmp, len(tgz))
	}
	data, err := os.ReadFile(tgz[0])
	if err != nil {
		return err
	}
	sum := sha512.Sum512(data)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != meta.Dist.Integrity {
		return fmt.Errorf("%s: sha512 %s does not match the registry's %s", filepath.Base(tgz[0]), got, meta.Dist.Integrity)
	}
	bundle := filepath.Join(tmp, "index.cjs")
	if err := extract(data, "package/dist/index.cjs", bundle); err != nil {
		return err
	}
	dump, err := command(ctx, tmp, node, "-e", dumpScript, bundle)
	if err != nil {
		return err
	}
	var raw []rawProvider
	dec := json.NewDecoder(bytes.NewReader(dump))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("read %s's data: %w", spec, err)
	}
	published := ""
	if t, err := time.Parse(time.RFC3339, meta.Time[version]); err == nil {
		published = t.UTC().Format(time.DateOnly)
	}
	cat, rep, err := convert(raw)
	if err != nil {
		return err
	}
	cat.Source, cat.Version, cat.Tarball, cat.Integrity = "npm:"+pkg, version, meta.Dist.Tarball, meta.Dist.Integrity
	cat.Published, cat.Date, cat.Licence, cat.Homepage = published, date, meta.License, meta.Homepage
	cat.Unit = "USD per million tokens"
	if err := writeFile(out, cat); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %s → %s: %s\n", spec, out, rep)
	return nil
}

// command runs a program and returns its standard output; a failure's
// error carries its standard error.
func command(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", name, args[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// extract writes the tarball member name to dst.
func extract(tgz []byte, name, dst string) error {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return fmt.Errorf("open tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("tarball has no %s", name)
		}
		if err != nil {
			return fmt.Errorf("read tarball: %w", err)
		}
		if h.Name != name {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 64<<20))
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		return os.WriteFile(dst, data, 0o600)
	}
}

// writeFile writes the snapshot next to out and renames it into place,
// so that a failed run leaves the old snapshot whole.
func writeFile(out string, cat *snapshot.Catalog) error {
	var b bytes.Buffer
	if err := snapshot.Write(&b, cat); err != nil {
		return err
	}
	if _, err := snapshot.Parse(b.Bytes()); err != nil {
		return fmt.Errorf("snapshot does not read back: %w", err)
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
