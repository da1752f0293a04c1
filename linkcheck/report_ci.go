package linkcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// warned reports whether a skipped result is worth a warning: not one
// the user asked to skip.
func warned(r Result) bool {
	return r.Status == Skipped && !strings.HasPrefix(r.Detail, "excluded") && !strings.HasPrefix(r.Detail, "offline")
}

// writeGitHub writes GitHub Actions workflow commands: "::error" for each
// place of a broken, invalid or broken-fragment URL, "::warning" for a
// skipped one, each with its file, line and column, so that they land on
// the lines of a pull request.
func (rep Report) writeGitHub(w io.Writer, rs []Result) {
	for _, r := range rs {
		level := "error"
		switch {
		case r.Status == OK:
			continue
		case r.Status == Skipped:
			if !warned(r) {
				continue
			}
			level = "warning"
		}
		msg := ghData(fmt.Sprintf("%s: %s: %s", r.Status, r.URL, r.Detail))
		places := r.Places
		if len(places) == 0 {
			places = []Place{{}}
		}
		for _, p := range places {
			if p.File == "" {
				fmt.Fprintf(w, "::%s title=linkcheck::%s\n", level, msg)
				continue
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=linkcheck %s::%s\n",
				level, ghProp(filepath.ToSlash(p.File)), p.Line, p.Column, ghProp(r.Status.String()), msg)
		}
	}
	// Each departure from RFC 1738 once, at the URL's first place, as
	// the text report does.
	for _, r := range rs {
		for _, warn := range r.Warnings {
			msg := ghData(fmt.Sprintf("warning: %s: %s", r.URL, warn))
			if len(r.Places) == 0 || r.Places[0].File == "" {
				fmt.Fprintf(w, "::warning title=linkcheck::%s\n", msg)
				continue
			}
			p := r.Places[0]
			fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,title=linkcheck warning::%s\n", ghProp(filepath.ToSlash(p.File)), p.Line, p.Column, msg)
		}
	}
	fmt.Fprintln(w, Count(rs))
}

// ghData escapes a workflow command's message ('%', CR and LF), ghProp a
// property's value (also ':' and ','), as the runner reads them back.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// SARIF 2.1.0 (OASIS), the subset a code-scanning upload reads.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

var sarifRules = []sarifRule{
	{"broken", sarifMessage{"the link names nothing: the server, the network or the file system said no"}},
	{"broken-fragment", sarifMessage{"the page is there, but the #fragment names no anchor of it"}},
	{"invalid", sarifMessage{"not a valid URL"}},
	{"skipped", sarifMessage{"not checked"}},
	{"rfc1738", sarifMessage{"the URL departs from RFC 1738; it was read as browsers read it"}},
}

// writeSARIF writes one SARIF 2.1.0 result per URL that is not ok, with
// a physicalLocation for each place in a file.
func (rep Report) writeSARIF(w io.Writer, rs []Result) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "rfc1738 linkcheck",
		InformationURI: "https://github.com/rfc1738/rfc1738", Rules: sarifRules}}, Results: []sarifResult{}}
	for _, r := range rs {
		res := sarifResult{Level: "error", Message: sarifMessage{fmt.Sprintf("%s: %s: %s", r.Status, r.URL, r.Detail)}}
		switch r.Status {
		case OK:
			continue
		case Broken:
			res.RuleID = "broken"
		case BrokenFragment:
			res.RuleID = "broken-fragment"
		case Invalid:
			res.RuleID = "invalid"
		case Skipped:
			if !warned(r) {
				continue
			}
			res.RuleID, res.Level = "skipped", "warning"
		}
		for _, p := range r.Places {
			if p.File == "" {
				continue
			}
			loc := sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(p.File)}).String()}}}
			if p.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line, StartColumn: p.Column}
			}
			res.Locations = append(res.Locations, loc)
		}
		run.Results = append(run.Results, res)
	}
	for _, r := range rs {
		for _, warn := range r.Warnings {
			res := sarifResult{RuleID: "rfc1738", Level: "warning", Message: sarifMessage{fmt.Sprintf("warning: %s: %s", r.URL, warn)}}
			if len(r.Places) > 0 && r.Places[0].File != "" {
				p := r.Places[0]
				loc := sarifLocation{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(p.File)}).String()}}}
				if p.Line > 0 {
					loc.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line, StartColumn: p.Column}
				}
				res.Locations = []sarifLocation{loc}
			}
			run.Results = append(run.Results, res)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
