package handlers

import (
	"strconv"

	"github.com/labstack/echo/v4"

	turbinesim "github.com/turbinesim/turbinesim"
)

// Pagination, one rule for every list endpoint: default page_size 20, a
// maximum per endpoint between 50 and 200. A page_size over the endpoint's
// maximum is refused with 422 rather than silently shortened, so a script
// that asks for 500 rows learns at once that it gets at most 100 per page
// instead of missing the rest; the maximum of each endpoint is stated in its
// OpenAPI summary.

// defaultPageSize is the page_size of a list request that states none.
const defaultPageSize = 20

// maxPageNumber bounds page so that page*page_size cannot overflow an SQL
// OFFSET.
const maxPageNumber = 1_000_000

// Page is the paginated response of every list endpoint.
type Page[T any] struct {
	Items      []T `json:"items"`
	Total      int `json:"total"`
	Page       int `json:"page"`
	PageSize   int `json:"page_size"`
	TotalPages int `json:"total_pages"`
}

func newPage[T any](items []T, total, page, size int) Page[T] {
	return Page[T]{Items: items, Total: total, Page: page, PageSize: size, TotalPages: (total + size - 1) / size}
}

// pageParams reads page (default 1) and page_size (default 20, at most
// maxSize). A value that is not a positive integer, a page_size over
// maxSize, or a parameter given twice is 422 naming the parameter.
func pageParams(c echo.Context, maxSize int) (page, size int, err error) {
	q := c.QueryParams()
	read := func(name string, def, max int) (int, error) {
		vs := q[name]
		if len(vs) == 0 {
			return def, nil
		}
		if len(vs) > 1 {
			return 0, turbinesim.Errorf(turbinesim.EINVALID, "%s: given more than once", name)
		}
		n, err := strconv.Atoi(vs[0])
		if err != nil || n < 1 {
			return 0, turbinesim.Errorf(turbinesim.EINVALID, "%s: must be a positive integer, got %q", name, vs[0])
		}
		if n > max {
			return 0, turbinesim.Errorf(turbinesim.EINVALID, "%s: at most %d, got %d", name, max, n)
		}
		return n, nil
	}
	if page, err = read("page", 1, maxPageNumber); err != nil {
		return 0, 0, err
	}
	if size, err = read("page_size", defaultPageSize, maxSize); err != nil {
		return 0, 0, err
	}
	return page, size, nil
}

// shortListMaxPageSize is the page_size maximum of the lists the service
// reads whole (members, outbox, sessions, demos, artifacts).
const shortListMaxPageSize = 100

// pageOf answers a list that the service reads whole (bounded, short
// lists) in the paginated shape, honouring page and page_size like every
// other list.
func pageOf[T any](c echo.Context, items []T) (Page[T], error) {
	page, size, err := pageParams(c, shortListMaxPageSize)
	if err != nil {
		return Page[T]{}, err
	}
	total := len(items)
	start := min((page-1)*size, total)
	end := min(start+size, total)
	window := make([]T, 0, end-start)
	window = append(window, items[start:end]...)
	return newPage(window, total, page, size), nil
}
