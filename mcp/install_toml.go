package mcp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// managedKeys are the keys of a Codex entry that Install writes; an entry
// switched from a command to a URL loses the others.
var managedKeys = []string{"command", "args", "url", "bearer_token_env_var"}

// mergeTOML sets the keys of entry (JSON values: strings and arrays of
// strings, which TOML spells the same) in the [mcp_servers.<name>] table of
// a Codex config.toml. It edits the text rather than re-encoding the
// document, so comments, order and every other table stay as they were;
// the other keys of the entry's own table (env, timeouts) are kept too. The
// result is parsed again and checked before it is returned.
func mergeTOML(old []byte, name string, entry []member) ([]byte, string, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(old), &doc); err != nil {
		return nil, "", fmt.Errorf("not valid TOML (%v); fix or move the file first", err)
	}
	status := InstallAdded
	if cur, ok := lookupEntry(doc, name); ok {
		if sameEntry(cur, entry) {
			return old, InstallUnchanged, nil
		}
		status = InstallUpdated
	}
	var lines []string
	for _, m := range entry {
		val := string(m.val)
		var list []string
		if json.Unmarshal(m.val, &list) == nil {
			quoted := make([]string, len(list))
			for i, x := range list {
				quoted[i] = string(jsonMember("", x).val)
			}
			val = "[" + strings.Join(quoted, ", ") + "]"
		}
		lines = append(lines, m.key+" = "+val)
	}
	text := string(old)
	header := regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*(?:` + regexp.QuoteMeta(name) + `|"` + regexp.QuoteMeta(name) + `")[ \t]*\][ \t]*(?:#.*)?$`)
	var out string
	if loc := header.FindStringIndex(text); loc != nil {
		out = text[:loc[1]] + "\n" + strings.Join(lines, "\n") + keepOtherKeys(text[loc[1]:])
	} else {
		if status == InstallUpdated {
			return nil, "", fmt.Errorf("mcp_servers.%s is defined inline, not as a [mcp_servers.%s] table; edit it by hand", name, name)
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		out = text + "[mcp_servers." + name + "]\n" + strings.Join(lines, "\n") + "\n"
	}
	var check map[string]any
	if _, err := toml.Decode(out, &check); err != nil {
		return nil, "", fmt.Errorf("could not update the [mcp_servers.%s] table (%v); edit it by hand", name, err)
	}
	if cur, ok := lookupEntry(check, name); !ok || !sameEntry(cur, entry) {
		return nil, "", fmt.Errorf("could not update the [mcp_servers.%s] table; edit it by hand", name)
	}
	return []byte(out), status, nil
}

// sameEntry reports whether a decoded table holds exactly entry's values
// among the managed keys.
func sameEntry(cur map[string]any, entry []member) bool {
	want := map[string]any{}
	for _, m := range entry {
		var v any
		if err := json.Unmarshal(m.val, &v); err != nil {
			return false
		}
		want[m.key] = v
	}
	for _, k := range managedKeys {
		w, ok := want[k]
		c, has := cur[k]
		if ok != has {
			return false
		}
		if !ok {
			continue
		}
		if list, isList := w.([]any); isList {
			strs := make([]string, len(list))
			for i, x := range list {
				strs[i], _ = x.(string)
			}
			if !sameArgs(c, strs) {
				return false
			}
		} else if c != w {
			return false
		}
	}
	return true
}

func lookupEntry(doc map[string]any, name string) (map[string]any, bool) {
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	return entry, ok
}

var tableHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*\[`) })
var commandOrArgs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*"?(?:command|args|url|bearer_token_env_var)"?[ \t]*=`)
})

// keepOtherKeys takes the text after the entry's header line and drops its
// command and args assignments (an args array may span lines), up to the
// next table header; the rest is kept as written.
func keepOtherKeys(rest string) string {
	lines := strings.SplitAfter(rest, "\n")
	var b strings.Builder
	inTable, skipping, depth := true, false, 0
	for i, l := range lines {
		if i == 0 {
			b.WriteString(l) // the remainder of the header line: its newline
			continue
		}
		if inTable && !skipping && tableHeader().MatchString(l) {
			inTable = false
		}
		if inTable && !skipping && commandOrArgs().MatchString(l) {
			skipping, depth = true, 0
		}
		if skipping {
			depth += strings.Count(l, "[") - strings.Count(l, "]")
			if depth <= 0 {
				skipping = false
			}
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}
