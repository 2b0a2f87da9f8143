package agents

import "path/filepath"

// geminiHarness is Gemini CLI.
func geminiHarness() Harness {
	return Harness{
		Kind:      Gemini,
		Parser:    geminiParser{},
		History:   &History{Parser: geminiHistoryParser{}},
		CLI:       CLI{Binary: "gemini", Stream: []string{"--output-format", "stream-json"}, Probe: ProbeHelp},
		RunTotal:  "stats",
		EditTools: []string{"replace", "write_file"},
		deltas:    geminiDeltas,
		Model:     geminiModel,
		// gemini 0.61.0: -r, --resume <latest|index|uuid> (its --help
		// names only latest and an index; its session selector takes
		// the UUID too); -p, --prompt.
		Resume: &Resume{ID: uuidID(), Args: func(id, p string) []string { return []string{"--resume", id, "--prompt=" + p} }},
	}
}

// geminiModel reads Gemini CLI's model: -m/--model, then $GEMINI_MODEL,
// then the settings files, system ($GEMINI_CLI_SYSTEM_SETTINGS_PATH, else
// /etc/gemini-cli/settings.json), the workspace's .gemini/settings.json,
// then ~/.gemini/settings.json: `model.name`, or the older string
// `model`.
func geminiModel(l Launch) (Model, error) {
	if m, ok := fromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	if m, ok := fromEnv(l, "GEMINI_MODEL"); ok {
		return m, nil
	}
	file := func(path string) func() (Model, error) {
		return func() (Model, error) { return jsonModel(l, path, "model.name", "model") }
	}
	sys := l.getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if sys == "" {
		sys = "/etc/gemini-cli/settings.json"
	}
	layers := []func() (Model, error){file(sys)}
	if l.Dir != "" {
		layers = append(layers, file(filepath.Join(l.Dir, ".gemini", "settings.json")))
	}
	if l.home() != "" {
		layers = append(layers, file(filepath.Join(l.home(), ".gemini", "settings.json")))
	}
	return firstOf(layers...)
}

// geminiDeltas recognises Gemini CLI's message lines with "delta":true.
func geminiDeltas(b []byte, obj jsonVal, typ string) (string, jsonVal, bool) {
	if typ == "message" && obj.member(b, "delta").is(b, "true") {
		return "message:" + obj.str(b, "role"), obj.member(b, "content"), true
	}
	return "", jsonVal{}, false
}
