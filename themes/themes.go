// Package themes holds sift's palettes: semantic colour tokens, one function
// per theme, and no lipgloss styles. The tui package builds its styles from
// a Palette; nothing else picks colours.
package themes

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"

	"charm.land/lipgloss/v2"
)

// Palette is one theme's semantic colour tokens. Every field must be set;
// Validate reports the ones that are not.
type Palette struct {
	// Name is the theme's name as --theme spells it, with its variant.
	Name string
	// Dark is true for palettes meant for a dark terminal background.
	Dark bool

	FgBase   color.Color // body text
	FgMuted  color.Color // secondary text: headers, units
	FgSubtle color.Color // hints, separators, placeholders
	BgBase   color.Color // dialog and overlay background
	BgSubtle color.Color // selected row background
	Border   color.Color // rules and dialog borders

	Primary color.Color // titles, the active sort column
	Accent  color.Color // cursor marker, keys in help
	Error   color.Color // failures
	Warn    color.Color // stalls, approvals
	Success color.Color // reviewed, success
	Info    color.Color // neutral badges

	Flagged  color.Color // ⚑ flagged and undecided
	Reviewed color.Color // ✓ reviewed
	Followup color.Color // ↻ needs_followup
	Ignored  color.Color // – ignored

	Thinking  color.Color // timeline: model time
	Executing color.Color // timeline: tool time
	Stall     color.Color // timeline: stalls
	Failure   color.Color // timeline: failed calls

	CodeKeyword color.Color // chroma: keywords
	CodeString  color.Color // chroma: strings
	CodeNumber  color.Color // chroma: numbers and literals
	CodeComment color.Color // chroma: comments
	CodeName    color.Color // chroma: names, keys, functions
	CodeAdded   color.Color // chroma: diff insertions
	CodeDeleted color.Color // chroma: diff deletions
	CodeEscape  color.Color // inert escape sequences shown from content
}

// c is a short hex colour constructor for the palettes below.
func c(hex string) color.Color { return lipgloss.Color(hex) }

// Dark is the default palette for dark terminals.
func Dark() Palette {
	return Palette{
		Name: "dark", Dark: true,
		FgBase: c("#D8DEE9"), FgMuted: c("#A3ACBA"), FgSubtle: c("#6B7385"),
		BgBase: c("#1F2430"), BgSubtle: c("#2E3545"), Border: c("#4C566A"),
		Primary: c("#88C0D0"), Accent: c("#B48EAD"),
		Error: c("#EF6B73"), Warn: c("#EBCB8B"), Success: c("#A3BE8C"), Info: c("#81A1C1"),
		Flagged: c("#F49B5B"), Reviewed: c("#A3BE8C"), Followup: c("#EBCB8B"), Ignored: c("#6B7385"),
		Thinking: c("#81A1C1"), Executing: c("#A3BE8C"), Stall: c("#EBCB8B"), Failure: c("#EF6B73"),
		CodeKeyword: c("#B48EAD"), CodeString: c("#A3BE8C"), CodeNumber: c("#D08770"),
		CodeComment: c("#6B7385"), CodeName: c("#88C0D0"), CodeAdded: c("#A3BE8C"),
		CodeDeleted: c("#EF6B73"), CodeEscape: c("#F49B5B"),
	}
}

// Light is the default palette for light terminals.
func Light() Palette {
	return Palette{
		Name: "light", Dark: false,
		FgBase: c("#2E3440"), FgMuted: c("#4C566A"), FgSubtle: c("#7B8494"),
		BgBase: c("#F4F5F7"), BgSubtle: c("#DDE3EC"), Border: c("#A5ADBA"),
		Primary: c("#1F6F8B"), Accent: c("#8A3FA0"),
		Error: c("#C0262F"), Warn: c("#9A6700"), Success: c("#2F7D32"), Info: c("#3B5BA5"),
		Flagged: c("#C4510F"), Reviewed: c("#2F7D32"), Followup: c("#9A6700"), Ignored: c("#7B8494"),
		Thinking: c("#3B5BA5"), Executing: c("#2F7D32"), Stall: c("#9A6700"), Failure: c("#C0262F"),
		CodeKeyword: c("#8A3FA0"), CodeString: c("#2F7D32"), CodeNumber: c("#A14A0B"),
		CodeComment: c("#7B8494"), CodeName: c("#1F6F8B"), CodeAdded: c("#2F7D32"),
		CodeDeleted: c("#C0262F"), CodeEscape: c("#C4510F"),
	}
}

// HighContrastDark is the high-contrast palette for dark terminals: pure
// foregrounds on black, saturated signal colours.
func HighContrastDark() Palette {
	return Palette{
		Name: "high-contrast-dark", Dark: true,
		FgBase: c("#FFFFFF"), FgMuted: c("#E0E0E0"), FgSubtle: c("#BDBDBD"),
		BgBase: c("#000000"), BgSubtle: c("#303030"), Border: c("#FFFFFF"),
		Primary: c("#00FFFF"), Accent: c("#FF00FF"),
		Error: c("#FF5050"), Warn: c("#FFFF00"), Success: c("#00FF00"), Info: c("#5FAFFF"),
		Flagged: c("#FF8700"), Reviewed: c("#00FF00"), Followup: c("#FFFF00"), Ignored: c("#BDBDBD"),
		Thinking: c("#5FAFFF"), Executing: c("#00FF00"), Stall: c("#FFFF00"), Failure: c("#FF5050"),
		CodeKeyword: c("#FF00FF"), CodeString: c("#00FF00"), CodeNumber: c("#FFAF00"),
		CodeComment: c("#BDBDBD"), CodeName: c("#00FFFF"), CodeAdded: c("#00FF00"),
		CodeDeleted: c("#FF5050"), CodeEscape: c("#FF8700"),
	}
}

// HighContrastLight is the high-contrast palette for light terminals.
func HighContrastLight() Palette {
	return Palette{
		Name: "high-contrast-light", Dark: false,
		FgBase: c("#000000"), FgMuted: c("#1A1A1A"), FgSubtle: c("#3A3A3A"),
		BgBase: c("#FFFFFF"), BgSubtle: c("#C8C8C8"), Border: c("#000000"),
		Primary: c("#00005F"), Accent: c("#5F005F"),
		Error: c("#AF0000"), Warn: c("#5F3F00"), Success: c("#005F00"), Info: c("#00008B"),
		Flagged: c("#8B2500"), Reviewed: c("#005F00"), Followup: c("#5F3F00"), Ignored: c("#3A3A3A"),
		Thinking: c("#00008B"), Executing: c("#005F00"), Stall: c("#5F3F00"), Failure: c("#AF0000"),
		CodeKeyword: c("#5F005F"), CodeString: c("#005F00"), CodeNumber: c("#8B2500"),
		CodeComment: c("#3A3A3A"), CodeName: c("#00005F"), CodeAdded: c("#005F00"),
		CodeDeleted: c("#AF0000"), CodeEscape: c("#8B2500"),
	}
}

// Names lists the theme names --theme accepts, "auto" first.
func Names() []string { return []string{"auto", "dark", "light", "high-contrast"} }

// All returns every palette, both variants of each theme.
func All() []Palette {
	return []Palette{Dark(), Light(), HighContrastDark(), HighContrastLight()}
}

// ByName returns the palette for a --theme value and the terminal's
// background: "auto" (or "") picks dark or light from it, "high-contrast"
// picks its variant from it, "dark" and "light" ignore it.
func ByName(name string, darkBackground bool) (Palette, error) {
	switch strings.ToLower(name) {
	case "", "auto":
		if darkBackground {
			return Dark(), nil
		}
		return Light(), nil
	case "dark":
		return Dark(), nil
	case "light":
		return Light(), nil
	case "high-contrast", "high-contrast-dark", "high-contrast-light":
		if strings.HasSuffix(name, "-light") || (!darkBackground && !strings.HasSuffix(name, "-dark")) {
			return HighContrastLight(), nil
		}
		return HighContrastDark(), nil
	}
	return Palette{}, fmt.Errorf("unknown theme %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Validate returns the names of the colour tokens that are unset: nil, or
// an unparsable colour (lipgloss turns a bad hex string into NoColor).
func (p Palette) Validate() []string {
	var missing []string
	v := reflect.ValueOf(p)
	t := v.Type()
	colorType := reflect.TypeFor[color.Color]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type != colorType {
			continue
		}
		val := v.Field(i).Interface()
		if val == nil {
			missing = append(missing, f.Name)
			continue
		}
		if _, bad := val.(lipgloss.NoColor); bad {
			missing = append(missing, f.Name)
		}
	}
	if p.Name == "" {
		missing = append(missing, "Name")
	}
	return missing
}
