// Package lint keeps a space honest with mechanical checks: orphan pages,
// broken cross-references, provenance drift, expired TTLs and invalid
// frontmatter. Findings are rows with stable ids and a lifecycle (open,
// resolved), committed in the space as one lint batch, and printed as text,
// JSON or SARIF.
//
// Lint never deletes or rewrites a page body. It needs only wiki and content.
package lint
