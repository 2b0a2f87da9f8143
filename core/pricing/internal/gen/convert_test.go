package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/pricing/internal/snapshot"
)

// fixture is a catalog in the shape the package's bundle dumps: one
// provider with a flat, a tiered and dated, an off-peak, a free and an
// image-only model, and a negative look-ahead.
const fixture = `[{"id":"p","name":"P","api_pattern":"x","pricing_urls":["u"],"model_match":{"starts_with":"m-"},
 "provider_match":{"contains":"pp"},"fallback_model_providers":["q"],"extractors":[],"models":[
 {"id":"m-flat","name":"Flat","match":{"equals":"m-flat"},"context_window":2e5,
  "prices":{"input_mtok":1,"output_mtok":2,"cache_read_mtok":0.1,"cache_write_mtok":1.25,"cache_write_1h_mtok":2,"web_searches_kcount":10}},
 {"id":"m-tiered","match":{"and":[{"starts_with":"m-tiered"},{"regex":"^(?!.*-tts(?:$|-))"}]},"price_comments":"c",
  "prices":[{"prices":{"input_mtok":{"base":3,"tiers":[{"start":200000,"price":6}]},"output_mtok":15}},
            {"constraint":{"type":"start_date","start_date":"2026-03-13"},"prices":{"input_mtok":3,"output_mtok":15}}]},
 {"id":"m-offpeak","match":{"equals":"m-offpeak"},"prices":[{"prices":{"input_mtok":0.2,"output_mtok":1}},
  {"constraint":{"type":"time_of_date","start_time":"00:30:00Z","end_time":"16:30:00Z"},"prices":{"input_mtok":0.4,"output_mtok":2}}]},
 {"id":"m-free","match":{"equals":"m-free"},"prices":{}},
 {"id":"m-image","match":{"equals":"m-image"},"deprecated":true,"prices":{"output_image_mtok":30}}
]}]`

func decode(t *testing.T, s string) []rawProvider {
	t.Helper()
	var raw []rawProvider
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestConvert(t *testing.T) {
	t.Parallel()
	cat, rep, err := convert(decode(t, fixture))
	if err != nil {
		t.Fatal(err)
	}
	if rep.providers != 1 || rep.models != 3 || rep.unpriced != 1 || rep.otherUnits != 1 || rep.rewritten != 1 ||
		rep.units["web_searches_kcount"] != 1 || rep.units["output_image_mtok"] != 1 {
		t.Errorf("report %s (%+v)", rep, rep)
	}
	p := cat.Providers[0]
	if p.ID != "p" || p.Claims.StartsWith != "m-" || p.Aliases.Contains != "pp" || !reflect.DeepEqual(p.Fallback, []string{"q"}) {
		t.Errorf("provider %+v", p)
	}
	rate := func(v float64) *snapshot.Rate { return &snapshot.Rate{Base: v} }
	want := []snapshot.Model{
		{ID: "m-flat", Name: "Flat", Match: snapshot.Match{Equals: "m-flat"}, Context: 200000,
			Prices: []snapshot.Period{{Input: rate(1), Output: rate(2), CacheRead: rate(0.1), CacheWrite: rate(1.25), CacheWrite1h: rate(2)}}},
		{ID: "m-tiered", Match: snapshot.Match{And: []snapshot.Match{{StartsWith: "m-tiered"},
			{Not: &snapshot.Match{Regex: "^.*-tts(?:$|-)"}}}},
			Prices: []snapshot.Period{
				{Input: &snapshot.Rate{Base: 3, Tiers: []snapshot.Tier{{Start: 200000, Price: 6}}}, Output: rate(15)},
				{Since: "2026-03-13", Input: rate(3), Output: rate(15)}}},
		{ID: "m-offpeak", Match: snapshot.Match{Equals: "m-offpeak"}, Prices: []snapshot.Period{
			{Input: rate(0.2), Output: rate(1)}, {Daily: []string{"00:30:00Z", "16:30:00Z"}, Input: rate(0.4), Output: rate(2)}}},
	}
	if !reflect.DeepEqual(p.Models, want) {
		got, _ := json.Marshal(p.Models)
		t.Errorf("models\n%s", got)
	}
	// The snapshot writes one model per line and reads back the same.
	var b bytes.Buffer
	if err := snapshot.Write(&b, cat); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 5+len(want) {
		t.Errorf("%d lines:\n%s", n, b.String())
	}
	back, err := snapshot.Parse(b.Bytes())
	if err != nil || !reflect.DeepEqual(back, cat) {
		t.Errorf("round trip: %v\n%s", err, b.String())
	}
}

func TestConvertRefuses(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]string{
		"unknown constraint": `[{"id":"p","models":[{"id":"m","match":{"equals":"m"},"prices":[{"constraint":{"type":"weekday"},"prices":{"input_mtok":1}}]}]}]`,
		"two match fields":   `[{"id":"p","models":[{"id":"m","match":{"equals":"m","contains":"m"},"prices":{"input_mtok":1}}]}]`,
		"bad regex":          `[{"id":"p","models":[{"id":"m","match":{"regex":"(?<=x)m"},"prices":{"input_mtok":1}}]}]`,
		"negative price":     `[{"id":"p","models":[{"id":"m","match":{"equals":"m"},"prices":{"input_mtok":-1}}]}]`,
		"tiers out of order": `[{"id":"p","models":[{"id":"m","match":{"equals":"m"},"prices":{"input_mtok":{"base":1,"tiers":[{"start":9,"price":2},{"start":3,"price":3}]}}}]}]`,
	} {
		if _, _, err := convert(decode(t, s)); err == nil {
			t.Errorf("%s: converted", name)
		}
	}
	var raw []rawProvider
	dec := json.NewDecoder(strings.NewReader(`[{"id":"p","models":[],"new_field":1}]`))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err == nil {
		t.Error("an unknown catalog field passed")
	}
}

func TestCloseParen(t *testing.T) {
	t.Parallel()
	for re, want := range map[string]int{`^(?!a)b`: 5, `^(?!a\)b)c`: 8, `^(?![)]x)y`: 8, `^(?!(a|b))c`: 9, `^(?!a`: -1} {
		if got := closeParen(re, 1); got != want {
			t.Errorf("closeParen(%q) = %d, want %d", re, got, want)
		}
	}
}
