package extract

// pair numbers the bracket pairs ( ), [ ] and { }.
func pair(c byte) int {
	switch c {
	case '(', ')':
		return 0
	case '[', ']':
		return 1
	}
	return 2
}

// openBefore reports whether a bracket of the pair that close closes is
// left open in b: opened there and not closed after it. It reads b backwards and
// stops at the first opening bracket no closing one after it closes, which
// in "[text](http://…)" is the octet before the URL.
func openBefore(b []byte, close byte) bool {
	open := byte('(')
	if close != ')' {
		open = close - 2 // '[' is ']' - 2, '{' is '}' - 2
	}
	closed := 0
	for k := len(b) - 1; k >= 0; k-- {
		switch b[k] {
		case open:
			if closed == 0 {
				return true
			}
			closed--
		case close:
			closed++
		}
	}
	return false
}

// trimTrailing leaves out of the bare URL u[from:j] what ends a sentence
// or markup: the punctuation '.', ',', ';', ':', '!', '?', '\”, a ')',
// ']' or '}' that closes nothing in the URL, an HTML character reference
// ("&copy;"), and the emphasis character the URL was opened with
// (Markdown's * and _), when not zero. It returns the new end.
func trimTrailing(u []byte, from, j int, emphasis byte) int {
	// Count the brackets once, at the first closing one met (most URLs
	// end with none); trimming one changes its count by one.
	var open, closed [3]int
	counted := false
	for j > from {
		c := u[j-1]
		if c == ';' {
			if k := entityBefore(u[from:j]); k > 0 {
				j -= k
				continue
			}
		}
		if class[c]&cTrailing != 0 || (c == emphasis && c != 0) {
			j--
			continue
		}
		if c == ')' || c == ']' || c == '}' {
			if !counted {
				// Nothing trimmed so far is a bracket: the count of
				// u[from:j] is the URL's.
				open, closed = bracketCount(u[from:j])
				counted = true
			}
			if p := pair(c); closed[p] > open[p] {
				closed[p]--
				j--
				continue
			}
		}
		break
	}
	return j
}

// bracketCount counts the opening and the closing brackets of each pair
// in b.
func bracketCount(b []byte) (open, closed [3]int) {
	for _, c := range b {
		switch c {
		case '(', '[', '{':
			open[pair(c)]++
		case ')', ']', '}':
			closed[pair(c)]++
		}
	}
	return open, closed
}
