// Package sketch measures how alike two texts are, for the file-back
// gates: MinHash sketches of word shingles (Fingerprint, Similarity,
// Containment) for near-duplicate answers, and the exact shingle sets of
// CopiedShare for answers that merely copy the pages they cite.
//
// It is pure: no git, no disk, no clock, and it imports nothing of pt.
package sketch
