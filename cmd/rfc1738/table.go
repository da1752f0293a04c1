package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// The command table is the one source of help, completion scripts and
// the man page: the commands registered in commands, and each command's
// flags as its own run function defines them (describeCommand), so the
// three can never disagree.

// flagInfo is one flag of a command as the table gives it.
type flagInfo struct {
	name  string // without dashes: "o", "retry"
	arg   string // the value's name ("FILE", "N"), or "" for a boolean
	usage string // the usage text, the backquotes removed
	def   string // the default, "" when it is the zero value
	// choices are the values of an enumerated flag (choiceFlag), which
	// the completion scripts offer; nil for any other flag.
	choices []string
}

// choiceFlag is a string flag whose value is one of a fixed set: the
// flag package refuses any other (a usage error), and the completion
// scripts offer the set.
type choiceFlag struct {
	value   string
	choices []string
}

// choice defines on fs a flag whose value is one of choices (compared
// without regard to case), def by default.
func choice(fs *flag.FlagSet, name, def, usage string, choices ...string) *string {
	c := &choiceFlag{value: def, choices: choices}
	fs.Var(c, name, usage)
	return &c.value
}

func (c *choiceFlag) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choiceFlag) Set(s string) error {
	for _, v := range c.choices {
		if strings.EqualFold(s, v) {
			c.value = v
			return nil
		}
	}
	return fmt.Errorf("want %s or %s", strings.Join(c.choices[:len(c.choices)-1], ", "), c.choices[len(c.choices)-1])
}

// dashed returns the flag as typed: "-O" for one letter, "--retry" else
// (the flag package reads both forms; these are the ones shown).
func (f flagInfo) dashed() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

// takesFile reports whether the flag's value names a file or a folder.
func (f flagInfo) takesFile() bool {
	switch f.arg {
	case "FILE", "DIR", "PATH":
		return true
	}
	return false
}

// describeCommand returns the flags of c, by running it with --help in
// an environment that captures its FlagSet and discards its output.
func describeCommand(c *command) []flagInfo {
	var fs *flag.FlagSet
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard,
		getenv:   func(string) string { return "" },
		describe: func(f *flag.FlagSet) { fs = f }}
	c.run(e, []string{"--help"})
	if fs == nil {
		return nil
	}
	var out []flagInfo
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			arg = ""
		} else if arg == "value" || arg == "" {
			arg = "VALUE"
		}
		def := f.DefValue
		switch def {
		case "false", "0", "", "[]", "0s":
			def = ""
		}
		fi := flagInfo{name: f.Name, arg: strings.ToUpper(arg), usage: usage, def: def}
		if c, ok := f.Value.(*choiceFlag); ok {
			fi.choices = c.choices
		}
		out = append(out, fi)
	})
	return out
}

// commandNames returns the registered commands in order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// firstSentence cuts a usage text to its first sentence or clause, for
// the one-line descriptions of completion menus.
func firstSentence(s string) string {
	for _, sep := range []string{". ", "; ", " ("} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSuffix(s, ".")
}
