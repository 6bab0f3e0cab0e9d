package guidance

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ptwiki/pt/content"
)

// The skill's frontmatter is what agents read to decide when to load it:
// it must parse, and its name must be the folder's (Claude Code's rule).
func TestSkillFrontmatter(t *testing.T) {
	s := string(Skill())
	if !strings.HasPrefix(s, "---\n") {
		t.Fatal("SKILL.md does not start with frontmatter")
	}
	fm, body, ok := strings.Cut(strings.TrimPrefix(s, "---\n"), "\n---\n")
	if !ok {
		t.Fatal("SKILL.md frontmatter is not closed")
	}
	var meta struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	dec := yaml.NewDecoder(strings.NewReader(fm))
	dec.KnownFields(true)
	if err := dec.Decode(&meta); err != nil {
		t.Fatalf("frontmatter: %v", err)
	}
	if meta.Name != SkillName || !strings.Contains(SkillPath, "/"+meta.Name+"/SKILL.md") {
		t.Errorf("name %q does not match the folder of %s", meta.Name, SkillPath)
	}
	if !regexp.MustCompile(`^[a-z0-9-]{1,64}$`).MatchString(meta.Name) {
		t.Errorf("name %q: lowercase letters, digits and hyphens only", meta.Name)
	}
	if meta.Description == "" || len(meta.Description) > 1024 {
		t.Errorf("description is empty or longer than 1024 characters: %d", len(meta.Description))
	}
	if _, err := content.Parse(SkillPath, Skill()); err != nil {
		t.Errorf("pt's own parser refuses SKILL.md: %v", err)
	}
	checkHabits(t, "SKILL.md", body)
	if !strings.Contains(body, "pt query-kb --json") {
		t.Error("SKILL.md does not say how to query without MCP")
	}
}

// checkHabits fails unless text states every habit of the guidance.
func checkHabits(t *testing.T, name, text string) {
	t.Helper()
	for _, w := range []string{"Query before implementing", "Cite what you used", "excerpt states the fact", "File back durable answers", "Never file live state"} {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not say %q", name, w)
		}
	}
}

func TestSection(t *testing.T) {
	root := Section("", "team")
	checkHabits(t, "AGENTS.md section", root)
	if !strings.Contains(root, "`pt query-kb --json") {
		t.Errorf("root section names a --kb flag or no CLI call:\n%s", root)
	}
	nested := Section("kb/", "team")
	if !strings.Contains(nested, "`pt --kb kb query-kb --json") || !strings.HasPrefix(nested, "<!-- pt:begin kb -->\n") {
		t.Errorf("nested section does not name its folder:\n%s", nested)
	}
	if lines := strings.Count(root, "\n"); lines > 20 {
		t.Errorf("the section is %d lines: keep it short", lines)
	}
}

func TestMergeKeepsPeoplesText(t *testing.T) {
	person := "# Agents\n\nRun make check before you push.\n"
	sec := Section("", "team")
	once, err := Merge([]byte(person), sec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(once, []byte(person)) || !bytes.HasSuffix(once, []byte(sec)) {
		t.Fatalf("merge did not append after the person's text:\n%s", once)
	}
	twice, err := Merge(once, sec)
	if err != nil || !bytes.Equal(once, twice) {
		t.Fatalf("second merge changed the file (%v):\n%s", err, twice)
	}
	// A person edits below the section; pt's new section replaces its own
	// only.
	edited := append(bytes.Clone(once), []byte("\n## Ours\n\nKeep this.\n")...)
	next := strings.Replace(sec, "team", "renamed", 1)
	got, err := Merge(edited, next)
	if err != nil {
		t.Fatal(err)
	}
	want := person + "\n" + next + "\n## Ours\n\nKeep this.\n"
	if string(got) != want {
		t.Errorf("merge:\n%s\nwant:\n%s", got, want)
	}
	// A second space gets a section of its own.
	both, err := Merge(got, Section("teams/infra/kb/", "infra"))
	if err != nil || !strings.Contains(string(both), "pt:begin teams/infra/kb") || !strings.Contains(string(both), "renamed") {
		t.Errorf("second space (%v):\n%s", err, both)
	}
}

func TestMergeRefusesBrokenMarkers(t *testing.T) {
	sec := Section("", "team")
	for name, old := range map[string]string{
		"begin only": "x\n<!-- pt:begin . -->\nhalf\n",
		"end first":  "<!-- pt:end . -->\n<!-- pt:begin . -->\n",
		"two begins": sec + sec,
	} {
		if _, err := Merge([]byte(old), sec); !errors.Is(err, ErrMarkers) {
			t.Errorf("%s: err = %v, want ErrMarkers", name, err)
		}
	}
	if got, err := Merge(nil, sec); err != nil || string(got) != sec {
		t.Errorf("empty file: %v\n%s", err, got)
	}
}
