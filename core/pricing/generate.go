package pricing

// The catalog snapshot is refreshed from the npm registry, never at run
// time: bump the version, run `go generate ./core/pricing`, review the
// diff of catalog.json and run the tests (TestSupplementNotInCatalog says
// when a supplement entry has become redundant).
//go:generate go run ./internal/gen -version 0.1.8 -o catalog.json
