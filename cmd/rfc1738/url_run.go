package main

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/edit"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// urlReplacement is one --replace (add false) or --replace-append.
type urlReplacement struct {
	name, value   string
	hasValue, add bool
}

// urlRun is one run of the url command: its options, and what it has
// written and found so far.
type urlRun struct {
	e                                                                             *env
	get, redirect                                                                 string
	sets, appends, iterates, trims                                                partValues
	repls                                                                         []urlReplacement
	verify, sortQuery, asJSON, urlencode, rfc3986, listParts, strict, hasRedirect bool
	edits                                                                         bool // the URL is not only printed
	partOf                                                                        func(rfc1738.URL, string) (string, bool)

	out     *bufio.Writer
	jsonOut []urlJSON
	status  int
	stopped bool // --verify met an invalid URL
}

// fail reports in's error: an empty output line (one per input line,
// always), and the run's status is 1.
func (r *urlRun) fail(in string, err error) {
	r.status = exitNegative
	r.stopped = r.verify
	if !r.asJSON && !r.verify {
		fmt.Fprintln(r.out)
	}
	r.out.Flush()
	fmt.Fprintf(r.e.stderr, "rfc1738 url: %s: %v\n", strconv.Quote(access.Redact(in)), errText(err))
}

// warn prints each RFC 1738 departure of in's reading once.
func (r *urlRun) warn(in string, deps []rfc1738.Departure) {
	for _, d := range deps {
		r.out.Flush()
		fmt.Fprintf(r.e.stderr, "rfc1738 url: warning: %s: %s\n", strconv.Quote(access.Redact(in)), safetext.Escape(d.String()))
	}
}

// one reads, resolves, edits and writes one input URL.
func (r *urlRun) one(in string) {
	if r.stopped {
		return
	}
	u, deps, err := readOperand(in, r.strict)
	if err != nil {
		var pe *rfc1738.Error
		if errors.As(err, &pe) {
			d := pe.Diagnostic()
			err = fmt.Errorf("offset %d: %s: %s", d.Offset, d.Rule, d.Message)
		}
		r.fail(in, err)
		return
	}
	if !r.asJSON {
		r.warn(in, deps)
	}
	if r.hasRedirect {
		var done bool
		if u, done = r.resolve(in, u); done {
			return
		}
	}
	if u, err = r.edit(u); err != nil {
		r.fail(in, err)
		return
	}
	results := []rfc1738.URL{u}
	for _, it := range r.iterates {
		var next []rfc1738.URL
		for _, res := range results {
			for _, v := range strings.Fields(it.value) {
				n, err := edit.Set(res, it.part, v)
				if err != nil {
					r.fail(in, err)
					return
				}
				next = append(next, n)
			}
		}
		results = next
	}
	r.write(in, results, deps)
}

// resolve applies --redirect to u. The RFC's answer is still the answer
// when it is not an RFC 1738 URL (RFC 1808 §5.2: http:g): printed with the
// warning, and edited further only when the reading takes it. done: u's
// output is written (or its failure reported).
func (r *urlRun) resolve(in string, u rfc1738.URL) (_ rfc1738.URL, done bool) {
	resolve := u.Resolve
	if r.rfc3986 {
		resolve = u.ResolveRFC3986
	}
	res, err := resolve(r.redirect)
	var re *rfc1738.ResolveError
	if err != nil && errors.As(err, &re) && re.Resolved != "" && !r.strict {
		fmt.Fprintf(r.e.stderr, "rfc1738 url: warning: %s: --redirect: %s\n", strconv.Quote(access.Redact(in)), safetext.Escape(err.Error()))
		if rr, _, rerr := rfc1738.Read(re.Resolved); rerr == nil {
			res, err = rr, nil
		} else if !r.edits {
			r.out.Flush()
			fmt.Fprintln(r.out, safetext.Escape(access.Redact(re.Resolved)))
			return u, true
		}
	}
	if err != nil {
		r.fail(in, fmt.Errorf("--redirect: %w", err))
		return u, true
	}
	return res, false
}

// edit applies --set, --append, --trim, --replace and --sort-query, in
// that order.
func (r *urlRun) edit(u rfc1738.URL) (rfc1738.URL, error) {
	var err error
	for _, s := range r.sets {
		if u, err = edit.Set(u, s.part, s.value); err != nil {
			return u, err
		}
	}
	for _, a := range r.appends {
		if u, err = edit.Append(u, a.part, a.value); err != nil {
			return u, err
		}
	}
	for _, t := range r.trims {
		if u, err = edit.TrimQuery(u, t.value); err != nil {
			return u, err
		}
	}
	for _, rp := range r.repls {
		if u, err = edit.ReplaceQuery(u, rp.name, rp.value, rp.hasValue, rp.add); err != nil {
			return u, fmt.Errorf("--replace: %w", err)
		}
	}
	if r.sortQuery {
		return edit.SortQuery(u)
	}
	return u, nil
}

// write writes the results of one input: JSON (at the end), part lists,
// a filled template, or the URL.
func (r *urlRun) write(in string, results []rfc1738.URL, deps []rfc1738.Departure) {
	var lines []string
	for _, res := range results {
		switch {
		case r.asJSON:
			j := jsonOf(res, r.partOf)
			for _, d := range deps {
				j.Warnings = append(j.Warnings, d.String())
			}
			r.jsonOut = append(r.jsonOut, j)
		case r.listParts:
			for _, name := range edit.Names(res) {
				v, ok := r.partOf(res, name)
				if !ok {
					v = "-"
				}
				lines = append(lines, name+" "+safetext.Escape(v))
			}
			lines = append(lines, "")
		case r.get != "":
			s, err := edit.ExpandWith(res, r.get, edit.Options{Encoded: r.urlencode, Escape: safetext.Escape})
			if err != nil {
				r.fail(in, err)
				return
			}
			lines = append(lines, s)
		default:
			lines = append(lines, res.String())
		}
	}
	for _, l := range lines {
		fmt.Fprintln(r.out, l)
	}
}
