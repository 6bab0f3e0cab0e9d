// Package secret finds credentials in text: provider keys and tokens,
// private keys, passwords in configuration and on command lines,
// credentialed URLs and authorization headers. It is the one scanner behind
// pt's secret gate (package ingest refuses such text before anything is
// written) and behind lint's secret_in_page check and the read paths that
// withhold such pages.
//
// It is pure and has no dependencies outside the standard library: every
// rule is an RE2 expression tried only on lines that hold its hint, so a
// scan is linear in the text. docs/secrets.md says what it covers, what it
// does not, and why it is not gitleaks.
package secret
