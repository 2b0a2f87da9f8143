package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentsift/sift/core/pricing"
)

// Prices is the Prices key: model prices laid over the embedded catalog
// (see pricing.Overrides for the form). Its keys may be written in any
// case, so that a price file written for sift before (`"input"`,
// `"cacheRead"`) reads as it did; unknown keys are errors.
type Prices struct {
	pricing.Overrides
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (p *Prices) UnmarshalYAML(n *yaml.Node) error {
	if err := canonicalKeys(n, reflect.TypeFor[pricing.Overrides](), "Prices"); err != nil {
		return err
	}
	return n.Decode(&p.Overrides)
}

// canonicalKeys rewrites the keys of the mappings under n that name a
// field of t in another case to the field's own spelling, and refuses a
// key that names none. Map keys (model names) are data and kept.
func canonicalKeys(n *yaml.Node, t reflect.Type, path string) error {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			f, ok := fieldFold(t, key.Value)
			if !ok {
				return fmt.Errorf("%s: unknown key %q (line %d)", path, key.Value, key.Line)
			}
			key.Value = f.Tag.Get("yaml")
			if err := canonicalKeys(n.Content[i+1], f.Type, path+"."+key.Value); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := canonicalKeys(n.Content[i+1], t.Elem(), path+"."+n.Content[i].Value); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			if err := canonicalKeys(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldFold finds the field of t whose yaml tag is key in any case.
func fieldFold(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tag := f.Tag.Get("yaml"); tag != "" && strings.EqualFold(tag, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// validate checks the Prices key; the error is an *Error naming
// the price's key ("Prices.Models.my-model.Input").
func (p Prices) validate(file string) error {
	err := p.Overrides.Validate()
	if err == nil {
		return nil
	}
	var fe *pricing.FieldError
	if errors.As(err, &fe) {
		return &Error{File: file, Key: "Prices." + fe.Key, Msg: fe.Msg}
	}
	return &Error{File: file, Key: "Prices", Msg: err.Error()}
}

// PriceTable returns the embedded price catalog with the Prices key laid
// over it.
func (c Config) PriceTable() *pricing.Table {
	t := pricing.Default()
	o := c.Prices.Overrides
	if len(o.Models) == 0 && o.Date == "" {
		return t
	}
	file := c.file
	if file == "" {
		file = "(configuration)"
	}
	return t.With(o, file)
}

// LoadPrices reads a price file (`sift summary --pricing FILE`): the
// value of a Prices key, in YAML or JSON, or a whole configuration file,
// whose Prices key is read. Errors are one line naming the file and key.
func LoadPrices(path string) (pricing.Overrides, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return pricing.Overrides{}, fmt.Errorf("read price table: %w", err)
	}
	fail := func(err error) (pricing.Overrides, error) {
		return pricing.Overrides{}, fmt.Errorf("price table %s: %s", path, oneLine(err.Error()))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fail(err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return fail(errors.New("no prices"))
	}
	root := doc.Content[0]
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if strings.EqualFold(root.Content[i].Value, "Prices") {
				root = root.Content[i+1]
				break
			}
		}
	}
	var p Prices
	if err := root.Decode(&p); err != nil {
		return fail(err)
	}
	if err := p.validate(path); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return fail(fmt.Errorf("%s %s", ce.Key, ce.Msg))
		}
		return fail(err)
	}
	return p.Overrides, nil
}
