package retrieve

import "path"

// hasYear reports whether s names a year (1900 to 2099) as a number of its
// own: "2022-h1", "events/2017/", "meeting-notes-2019", not "20220".
func hasYear(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j-i == 4 && (s[i:i+2] == "19" || s[i:i+2] == "20") {
			return true
		}
		i = j
	}
	return false
}

// yearly reports whether the page at k is one of a yearly series: a year in
// one of its folders (events/2017/, elections/steering/2022/) or in its
// file name (meeting-notes-2019.md, annual-report-2020.md), but not a file
// name that holds a full date. That is how a team names a record of its
// own (sources/2026-11-standup.md, "Weekly sync 2026-11-20" ingested as
// weekly-sync-2026-11-20.md, a postmortem, a decision record), which is the
// record of its subject rather than one year's copy of a recurring page.
func yearly(k string) bool {
	dir, base := path.Split(k)
	return hasYear(dir) || (hasYear(base) && !hasDate(base))
}

// hasDate reports whether s holds a year followed by a month, "2026-11" or
// "2026_11" (a day may follow).
func hasDate(s string) bool {
	for i := 0; i+7 <= len(s); i++ {
		y, sep, m := s[i:i+4], s[i+4], s[i+5:i+7]
		if (sep == '-' || sep == '_') && hasYear(y) && (i == 0 || s[i-1] < '0' || s[i-1] > '9') &&
			(m >= "01" && m <= "12") && (i+7 == len(s) || s[i+7] < '0' || s[i+7] > '9') {
			return true
		}
	}
	return false
}
