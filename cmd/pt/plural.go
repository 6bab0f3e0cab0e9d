package main

import "fmt"

// count says how many of a thing there are, with the noun in the right
// number: "1 page", "2 pages", "0 excerpts". many is the plural when it is
// not one+"s".
func count(n int, one string, many ...string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	if len(many) > 0 {
		return fmt.Sprintf("%d %s", n, many[0])
	}
	return fmt.Sprintf("%d %ss", n, one)
}
