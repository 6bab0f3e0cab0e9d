package content

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ConfigFile is the name of the file that marks a space's root.
const ConfigFile = "kb.yaml"

// Config is kb.yaml: what a space is called, who owns it, and the knobs of
// file-back, the reaper, lint and retrieval. The zero value of every knob
// means "the default", so a two-line kb.yaml is a complete one.
type Config struct {
	Name           string      `yaml:"name" json:"name"`
	Owner          string      `yaml:"owner,omitempty" json:"owner,omitempty"`                   // agent | human
	Compounding    *bool       `yaml:"compounding,omitempty" json:"compounding,omitempty"`       // file-back on (default) or off
	Classification string      `yaml:"classification,omitempty" json:"classification,omitempty"` // default UNCLASSIFIED
	TTL            Duration    `yaml:"ttl,omitempty" json:"ttl,omitempty"`                       // for time_bound pages; default 90d
	Remote         string      `yaml:"remote,omitempty" json:"remote,omitempty"`
	SpokeLimit     int         `yaml:"spoke_limit,omitempty" json:"spoke_limit,omitempty"`           // pages per spoke; default 40
	MaxSourceBytes int64       `yaml:"max_source_bytes,omitempty" json:"max_source_bytes,omitempty"` // default 5 MB
	Lint           LintConfig  `yaml:"lint,omitempty" json:"lint,omitempty"`
	Reap           ReapConfig  `yaml:"reap,omitempty" json:"reap,omitempty"`
	FileBack       FileBack    `yaml:"file_back,omitempty" json:"file_back,omitempty"`
	Topics         []TopicHint `yaml:"topics,omitempty" json:"topics,omitempty"`
	// AgentWrites is where agents' writes over MCP go: "direct" (the
	// default) onto the branch, or "propose" into the review queue
	// (proposal branches a person approves).
	AgentWrites string       `yaml:"agent_writes,omitempty" json:"agent_writes,omitempty"`
	Gaps        GapsConfig   `yaml:"gaps,omitempty" json:"gaps,omitempty"`
	Curate      CurateConfig `yaml:"curate,omitempty" json:"curate,omitempty"`
}

// CurateConfig is the curation pass's schedule and thresholds; zero values
// mean pt's defaults.
type CurateConfig struct {
	Schedule       string   `yaml:"schedule,omitempty" json:"schedule,omitempty"`               // cron spec; default @daily
	MinPages       int      `yaml:"min_pages,omitempty" json:"min_pages,omitempty"`             // missing_concept: pages that use a term
	VersionHorizon int      `yaml:"version_horizon,omitempty" json:"version_horizon,omitempty"` // stale_claim: minor versions behind the newest
	StaleAfter     Duration `yaml:"stale_after,omitempty" json:"stale_after,omitempty"`         // stale_claim: age of a present-tense anchor
}

// AgentWrites values.
const (
	AgentWritesDirect  = "direct"
	AgentWritesPropose = "propose"
)

// ProposeAgentWrites reports whether agents' writes go to the review queue.
func (c Config) ProposeAgentWrites() bool { return c.AgentWrites == AgentWritesPropose }

// GapsConfig says whether the questions the space could not answer are
// recorded (on by default, in the space's local state) and whether lint
// reports them as knowledge_gap findings.
type GapsConfig struct {
	Record *bool `yaml:"record,omitempty" json:"record,omitempty"`
	Lint   bool  `yaml:"lint,omitempty" json:"lint,omitempty"`
	Max    int   `yaml:"max,omitempty" json:"max,omitempty"` // distinct questions kept; default 500
}

// DefaultMaxGaps bounds the questions a space records.
const DefaultMaxGaps = 500

// RecordGaps reports whether unanswered questions are recorded.
func (c Config) RecordGaps() bool { return c.Gaps.Record == nil || *c.Gaps.Record }

// MaxGaps is how many distinct unanswered questions are kept.
func (c Config) MaxGaps() int {
	if c.Gaps.Max <= 0 {
		return DefaultMaxGaps
	}
	return c.Gaps.Max
}

// LintConfig is the lint schedule and what lint may do on its own.
type LintConfig struct {
	Schedule     string `yaml:"schedule,omitempty" json:"schedule,omitempty"` // cron spec; default @daily
	StaleOnDrift *bool  `yaml:"stale_on_drift,omitempty" json:"stale_on_drift,omitempty"`
}

// ReapConfig is the TTL reaper's schedule.
type ReapConfig struct {
	Schedule string `yaml:"schedule,omitempty" json:"schedule,omitempty"` // cron spec; default @daily
}

// FileBack holds the thresholds of the file-back gates.
type FileBack struct {
	Echo          float64  `yaml:"echo,omitempty" json:"echo,omitempty"`
	NearDuplicate float64  `yaml:"near_duplicate,omitempty" json:"near_duplicate,omitempty"`
	Window        Duration `yaml:"window,omitempty" json:"window,omitempty"` // default 30d
}

// TopicHint seeds the taxonomy: a topic, what it covers, and words that
// assign a page to it when the caller names no topic.
type TopicHint struct {
	Name        string   `yaml:"name" json:"name"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`
	Keywords    []string `yaml:"keywords,omitempty" json:"keywords,omitempty"`
}

// Defaults of the knobs whose zero value means "the default".
const (
	DefaultSpokeLimit     = 40
	DefaultMaxSourceBytes = 5 << 20
	DefaultTTL            = 90 * 24 * time.Hour
	DefaultWindow         = 30 * 24 * time.Hour
	DefaultSchedule       = "@daily"
)

// CompoundingOn reports whether consults may file back.
func (c Config) CompoundingOn() bool { return c.Compounding == nil || *c.Compounding }

// SpaceClassification is the space's classification, UNCLASSIFIED unless set.
func (c Config) SpaceClassification() string {
	if c.Classification == "" {
		return Unclassified
	}
	return c.Classification
}

// Spoke returns the bound on pages listed in one spoke.
func (c Config) Spoke() int {
	if c.SpokeLimit <= 0 {
		return DefaultSpokeLimit
	}
	return c.SpokeLimit
}

// SourceLimit returns the largest source ingest accepts, in bytes.
func (c Config) SourceLimit() int64 {
	if c.MaxSourceBytes <= 0 {
		return DefaultMaxSourceBytes
	}
	return c.MaxSourceBytes
}

// TTLOrDefault is how long a time_bound page lives.
func (c Config) TTLOrDefault() time.Duration {
	if c.TTL <= 0 {
		return DefaultTTL
	}
	return time.Duration(c.TTL)
}

// WindowOrDefault is how far back the near-duplicate gate looks.
func (c Config) WindowOrDefault() time.Duration {
	if c.FileBack.Window <= 0 {
		return DefaultWindow
	}
	return time.Duration(c.FileBack.Window)
}

// StaleOnDrift reports whether lint marks agent-owned pages with drift stale.
func (c Config) StaleOnDrift() bool { return c.Lint.StaleOnDrift == nil || *c.Lint.StaleOnDrift }

// ParseConfig reads kb.yaml. Unknown keys are an error, so a typo in a knob
// is caught rather than silently ignored.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("%s: %s", ConfigFile, cleanYAMLErr(err))
	}
	if c.Owner != "" && c.Owner != AuthorAgent && c.Owner != AuthorHuman {
		return Config{}, fmt.Errorf("%s: owner must be agent or human, not %q", ConfigFile, c.Owner)
	}
	if c.AgentWrites != "" && c.AgentWrites != AgentWritesDirect && c.AgentWrites != AgentWritesPropose {
		return Config{}, fmt.Errorf("%s: agent_writes must be direct or propose, not %q", ConfigFile, c.AgentWrites)
	}
	return c, nil
}

// Bytes serializes the config for kb.yaml.
func (c Config) Bytes() []byte {
	b, err := yaml.Marshal(c)
	if err != nil {
		panic(err) // Config holds only plain values
	}
	return b
}

// Duration is a time.Duration that kb.yaml writes in days or weeks too:
// "90d", "2w", "36h".
type Duration time.Duration

// MaxDuration bounds the durations kb.yaml accepts (a TTL, the file-back
// window): a longer one is a typo, and past about 290 years it would not
// even fit a time.Duration.
const MaxDuration = 100 * 365 * 24 * time.Hour

// ParseDuration accepts Go durations plus the d (day) and w (week) units,
// from zero up to MaxDuration.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			f, err := strconv.ParseFloat(n, 64)
			if err != nil || !(f >= 0) || f*float64(unit) > float64(MaxDuration) {
				return 0, fmt.Errorf("invalid duration %q (use 90d, 2w or 36h, at most 100 years)", s)
			}
			return time.Duration(f * float64(unit)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > MaxDuration {
		return 0, fmt.Errorf("invalid duration %q (use 90d, 2w or 36h, at most 100 years)", s)
	}
	return d, nil
}

// UnmarshalYAML reads "90d" and friends.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes whole days as "Nd".
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// String writes whole days as "Nd", else a Go duration.
func (d Duration) String() string {
	td := time.Duration(d)
	if td%(24*time.Hour) == 0 && td > 0 {
		return strconv.FormatInt(int64(td/(24*time.Hour)), 10) + "d"
	}
	return td.String()
}

// IsZero lets omitempty drop an unset duration.
func (d Duration) IsZero() bool { return d == 0 }
