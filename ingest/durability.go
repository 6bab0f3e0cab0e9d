package ingest

import "github.com/ptwiki/pt/ingest/internal/durability"

// CheckDurability refuses a durability a caller stated (a CLI flag, an MCP
// argument) that FileBack would refuse: one of durable, time_bound (or
// time-bound) and ephemeral, in any case, or empty for unstated.
func CheckDurability(s string) error {
	_, err := durability.Parse(s)
	return err
}
