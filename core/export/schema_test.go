package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// atifSchema compiles the ATIF-v1.4 JSON Schema kept in testdata/atif,
// with formats (date-time) asserted.
func atifSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	return compileSchema(t, filepath.Join("..", "..", "testdata", "atif", "schema-v1.4.json"), "")
}

// compileSchema compiles the schema file at path, or the definition of
// it that ptr points at (a JSON pointer such as "/$defs/X").
func compileSchema(t testing.TB, path, ptr string) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(abs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("read schema %s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "file://" + filepath.ToSlash(abs)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url + "#" + ptr)
	if err != nil {
		t.Fatalf("compile schema %s: %v", path, err)
	}
	return sch
}

// validate checks the JSON document data against sch.
func validate(t testing.TB, sch *jsonschema.Schema, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// jsonValue decodes data as a generic JSON value, for comparing
// documents by what they mean rather than by their bytes.
func jsonValue(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}
