package review

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
)

// ProjectLabels names the projects of agent history sessions by the
// folders they record: each folder by its last part, with as many parent
// parts added as it takes to tell it from every other folder of the list
// that ends the same way ("app" alone, but "ana/app" and "bob/app" when
// both are listed), and in full when even that does not tell them apart.
// Folder names like Claude Code's project slugs (-home-ana-app) and Gemini
// CLI's 64-hex project hashes are never a label: they are the store's key,
// not what the reviewer calls the project. Empty folders are left out.
func ProjectLabels(folders []string) map[string]string {
	parts := map[string][]string{}
	for _, f := range folders {
		if f == "" {
			continue
		}
		if _, ok := parts[f]; !ok {
			parts[f] = folderParts(f)
		}
	}
	// The folders that share each suffix of n parts.
	taken := map[string]int{}
	for _, p := range parts {
		for n := 1; n <= len(p); n++ {
			taken[strings.Join(p[len(p)-n:], "/")]++
		}
	}
	out := make(map[string]string, len(parts))
	for f, p := range parts {
		label := ""
		for n := 1; n <= len(p); n++ {
			if s := strings.Join(p[len(p)-n:], "/"); taken[s] == 1 {
				label = s
				break
			}
		}
		if label == "" {
			// Two spellings of one folder (a trailing slash) or a
			// folder that is the tail of another (/app, /x/app): the
			// whole folder as recorded.
			label = f
		}
		out[f] = label
	}
	return out
}

// folderParts are a folder's non-empty parts, either separator taken:
// /home/ana/app is home, ana, app; C:\src\app is C:, src, app. A folder
// of no parts ("/") is itself.
func folderParts(folder string) []string {
	f := strings.ReplaceAll(folder, `\`, "/")
	var out []string
	for p := range strings.SplitSeq(path.Clean("/"+f), "/") {
		if p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return []string{folder}
	}
	return out
}

// ShortHash is how a project that records no folder is named: "#" and 8
// hex digits of the work item's SHA-256, the same for every session of
// the work item, and never the work item's own slug or hash.
func ShortHash(workItem string) string {
	h := sha256.Sum256([]byte(workItem))
	return "#" + hex.EncodeToString(h[:4])
}
