package lint

import (
	"encoding/json"
	"io"
	"net/url"
)

// SARIF 2.1.0, the subset code-scanning hosts read: one run of the tool
// "pt", one rule per check, one result per open finding, located by a
// repository-relative URI and a start line.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifText    `json:"shortDescription"`
		FullDescription      sarifText    `json:"fullDescription"`
		Help                 sarifText    `json:"help"`
		DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
	}
	sarifDefault struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// WriteSARIF writes the open findings of reports as one SARIF 2.1.0 log.
// URIs are relative to the repository root (the space's directory
// prefixed), which is how code-scanning hosts place alerts; a finding about
// a whole page sits on its line 1. The finding id is the partial
// fingerprint, so a host tracks an alert across runs as lint does.
func WriteSARIF(w io.Writer, reports []*Report) error {
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: "pt", InformationURI: "https://github.com/ptwiki/pt"}},
		Results: []sarifResult{},
	}
	for _, r := range Rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: r.ID, Name: r.Name, ShortDescription: sarifText{r.Short}, FullDescription: sarifText{r.Short + " " + r.Help},
			Help: sarifText{r.Help}, DefaultConfiguration: sarifDefault{r.Severity},
		})
	}
	for _, rep := range reports {
		for _, f := range rep.Open() {
			_, idx := ruleOf(f.Check)
			run.Results = append(run.Results, sarifResult{
				RuleID: f.Check, RuleIndex: idx, Level: f.Severity, Message: sarifText{f.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifact{URI: (&url.URL{Path: repoPath(rep.Space, f.Path)}).String()},
					Region:           sarifRegion{StartLine: max(f.Line, 1)},
				}}},
				PartialFingerprints: map[string]string{"ptFinding/v1": f.ID},
			})
		}
	}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
