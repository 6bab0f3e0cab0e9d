package mcp

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// DefaultConfirmTTL is how long a destructive call's preview may be
// confirmed.
const DefaultConfirmTTL = 5 * time.Minute

// ErrConfirm is wrapped by every refused confirmation: expired, used
// already, issued to another caller or for another call, or unknown.
var ErrConfirm = errors.New("confirmation refused")

// Destructive is the output of the destructive tools (revert_ingest_batch,
// supersede_page, retract_page). A first call returns a preview and a
// confirm_token; a second call with the same arguments and that token acts,
// and returns the batch.
type Destructive struct {
	ConfirmToken string   `json:"confirm_token,omitempty" jsonschema:"send it back as confirm_token, with the same arguments, to do what the preview says"`
	Expires      string   `json:"expires,omitempty" jsonschema:"when confirm_token stops being accepted (RFC 3339)"`
	Preview      *Preview `json:"preview,omitempty"`
	*wiki.Result
}

// Preview is what a destructive call would do, for a person to read before
// the agent confirms: every page deleted, restored or retired, and whose.
type Preview struct {
	Tool  string        `json:"tool"`
	What  string        `json:"what"`
	Pages []PreviewPage `json:"pages"`
}

// PreviewPage is one page a destructive call would touch.
type PreviewPage struct {
	Path       string         `json:"path"`
	Action     string         `json:"action"` // delete | restore | retire | successor
	Status     string         `json:"status,omitempty"`
	Owner      content.Author `json:"owner,omitzero"`
	HumanOwned bool           `json:"human_owned"`
}

// destructiveSchema is the output schema of the destructive tools: the
// preview's fields and the batch's, none of them required, since a result
// carries one or the other.
func destructiveSchema() *jsonschema.Schema {
	s, err := jsonschema.ForType(reflect.TypeFor[Destructive](), &jsonschema.ForOptions{})
	if err != nil {
		panic(fmt.Sprintf("output schema: %v", err))
	}
	s.Required = nil
	return s
}

// confirmations holds the tokens previews issued until they are used or
// expire. Each is good for one call: the same tool, the same arguments,
// the same caller.
type confirmations struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[string]*pending
}

type pending struct {
	call, caller string
	expires      time.Time
	used         bool
}

func newConfirmations(ttl time.Duration) *confirmations {
	if ttl <= 0 {
		ttl = DefaultConfirmTTL
	}
	return &confirmations{ttl: ttl, m: map[string]*pending{}}
}

// callKey identifies a call by its tool and arguments, as JSON.
func callKey(tool string, args any) string {
	b, _ := json.Marshal(args)
	return tool + " " + string(b)
}

// issue returns a new token for call by caller, valid until now + ttl.
func (cs *confirmations) issue(call, caller string, now time.Time) (string, time.Time) {
	var raw [18]byte
	_, _ = rand.Read(raw[:])
	tok := "ct_" + base64.RawURLEncoding.EncodeToString(raw[:])
	exp := now.Add(cs.ttl)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for k, p := range cs.m {
		if now.After(p.expires.Add(cs.ttl)) {
			delete(cs.m, k) // long expired: a replay of it is "unknown" from now on
		}
	}
	cs.m[tok] = &pending{call: call, caller: caller, expires: exp}
	return tok, exp
}

// redeem accepts tok for call by caller at now, once.
func (cs *confirmations) redeem(tok, call, caller string, now time.Time) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	p, ok := cs.m[tok]
	switch {
	case !ok:
		return fmt.Errorf("%w: unknown confirm_token; call again without it for a new preview", ErrConfirm)
	case p.used:
		return fmt.Errorf("%w: confirm_token was used already; call again without it for a new preview", ErrConfirm)
	case p.caller != caller:
		return fmt.Errorf("%w: confirm_token was issued to another caller", ErrConfirm)
	case now.After(p.expires):
		return fmt.Errorf("%w: confirm_token expired at %s; call again without it for a new preview", ErrConfirm, p.expires.UTC().Format(time.RFC3339))
	case p.call != call:
		return fmt.Errorf("%w: confirm_token was issued for another call (other arguments)", ErrConfirm)
	}
	p.used = true
	return nil
}
