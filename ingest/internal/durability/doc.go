// Package durability classifies how long a consult's answer stays true
// (durable, time-bound or ephemeral) from cues in its question and answer,
// and reads the expiry date an answer states. It knows nothing of spaces,
// pages or git: it reads text and a clock, and imports only the standard
// library.
package durability
