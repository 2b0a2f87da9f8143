package search

import (
	"errors"
	"reflect"
	"testing"
)

// TestParseTeam: mine, unclaimed and by:NAME are filters, invertible,
// judged at the search's clock; mine needs a reviewer, except while it is
// being typed; a quoted "mine" is a word.
func TestParseTeam(t *testing.T) {
	t.Parallel()
	q, err := Parse(`MINE -unclaimed by:Ana "mine" by:"bo"`, Options{Now: now, Reviewer: "cy"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Filter{
		{Field: FieldMine, Op: OpIs, Value: "cy", Now: now},
		{Field: FieldUnclaimed, Op: OpIs, Not: true, Now: now},
		{Field: FieldBy, Op: OpIs, Value: "Ana", Now: now},
		{Field: FieldBy, Op: OpIs, Value: "bo", Now: now},
	}
	if !reflect.DeepEqual(q.Filters, want) {
		t.Fatalf("filters %+v, want %+v", q.Filters, want)
	}
	if len(q.Terms) != 1 || q.Terms[0].Text != "mine" || !q.Terms[0].Quoted {
		t.Fatalf("terms %+v, want the word mine", q.Terms)
	}
	if !q.Filters[1].ClaimsAt().Equal(now) {
		t.Fatalf("claims judged at %v, want the search's clock", q.Filters[1].ClaimsAt())
	}

	var pe *ParseError
	if _, err := Parse("mine", Options{Now: now}); !errors.As(err, &pe) || pe.Token != "mine" {
		t.Fatalf("mine without a reviewer: %v, want a ParseError", err)
	}
	if _, err := Parse("by:", Options{Now: now}); !errors.As(err, &pe) {
		t.Fatalf("by: without a name: %v, want a ParseError", err)
	}
	if q, err := Parse("droid mine", Options{Now: now, Typing: true}); err != nil || len(q.Filters) != 0 || len(q.Terms) != 1 {
		t.Fatalf("mine being typed without a reviewer: %+v, %v; want it left out", q, err)
	}
	if q, err := Parse("mines unclaimedx", Options{Now: now}); err != nil || len(q.Filters) != 0 || len(q.Terms) != 2 {
		t.Fatalf("words that start like the filters: %+v, %v; want words", q, err)
	}
}
