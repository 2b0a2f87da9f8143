package themes

import (
	"image/color"
	"math"
	"testing"
)

func TestEveryThemeSetsEveryToken(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		if missing := p.Validate(); len(missing) > 0 {
			t.Errorf("theme %s: unset tokens %v", p.Name, missing)
		}
	}
}

func TestValidateCatchesUnsetAndBadTokens(t *testing.T) {
	t.Parallel()
	p := Dark()
	p.Warn = nil
	p.Error = c("#nothex")
	got := p.Validate()
	if len(got) != 2 || got[0] != "Error" || got[1] != "Warn" {
		t.Fatalf("Validate() = %v, want [Error Warn]", got)
	}
}

func TestByName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		dark bool
		want string
	}{
		{"auto", true, "dark"},
		{"", false, "light"},
		{"dark", false, "dark"},
		{"light", true, "light"},
		{"high-contrast", true, "high-contrast-dark"},
		{"high-contrast", false, "high-contrast-light"},
	}
	for _, tc := range tests {
		p, err := ByName(tc.name, tc.dark)
		if err != nil || p.Name != tc.want {
			t.Errorf("ByName(%q, %v) = %q, %v; want %q", tc.name, tc.dark, p.Name, err, tc.want)
		}
	}
	if _, err := ByName("solarized", true); err == nil {
		t.Error("ByName(solarized) succeeded, want an error")
	}
}

// luminance is the relative luminance of a colour (WCAG).
func luminance(col color.Color) float64 {
	r, g, b, _ := col.RGBA()
	lin := func(v uint32) float64 {
		f := float64(v) / 0xffff
		if f <= 0.03928 {
			return f / 12.92
		}
		return pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func TestTextContrastsWithSelection(t *testing.T) {
	t.Parallel()
	for _, p := range All() {
		fg, bg := luminance(p.FgBase), luminance(p.BgSubtle)
		hi, lo := max(fg, bg), min(fg, bg)
		if ratio := (hi + 0.05) / (lo + 0.05); ratio < 4.5 {
			t.Errorf("theme %s: body text on the selected row has contrast %.1f, want ≥ 4.5", p.Name, ratio)
		}
		if p.Dark != (luminance(p.BgBase) < 0.2) {
			t.Errorf("theme %s: Dark=%v but background luminance is %.2f", p.Name, p.Dark, luminance(p.BgBase))
		}
	}
}

func pow(x, y float64) float64 { return math.Pow(x, y) }
