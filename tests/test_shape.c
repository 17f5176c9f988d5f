/* extent and index: construction, size, contains, arithmetic, printing. */
#include "test.h"

int main(void)
{
    test_begin();
    char buf[48];
    amp_extent e = amp_extent3(2, 3, 4);
    REQUIRE_INT(amp_extent_size(e), 24);
    REQUIRE_INT(e.dims[2], 4); /* columns */
    REQUIRE_INT(e.dims[1], 3); /* rows */
    REQUIRE_INT(e.dims[0], 2); /* depth */
    REQUIRE(strcmp(amp_extent_format(e, buf, sizeof buf), "(2, 3, 4)") == 0);
    REQUIRE(amp_extent_contains(e, amp_index3(1, 2, 3)));
    REQUIRE(!amp_extent_contains(e, amp_index3(2, 0, 0)));
    REQUIRE(!amp_extent_contains(e, amp_index3(0, -1, 0)));
    REQUIRE(!amp_extent_contains(e, amp_index2(0, 0)));
    REQUIRE_INT(amp_extent_linear(e, amp_index3(0, 1, 3)), 7);
    REQUIRE(amp_index_equal(amp_extent_unlinear(e, 7), amp_index3(0, 1, 3)));
    REQUIRE(amp_index_equal(amp_index_add(amp_index2(1, 2), amp_index2(3, 4)), amp_index2(4, 6)));
    REQUIRE(amp_index_equal(amp_index_sub(amp_index2(1, 2), amp_index2(3, 4)), amp_index2(-2, -2)));
    REQUIRE(amp_index_equal(amp_index_scale(amp_index1(3), 4), amp_index1(12)));
    REQUIRE(amp_extent_equal(amp_extent_add(amp_extent2(1, 2), amp_extent2(3, 4)), amp_extent2(4, 6)));
    REQUIRE(amp_extent_equal(amp_extent_from_origin(amp_extent2(4, 6), amp_index2(1, 2)), amp_extent2(3, 4)));
    REQUIRE(strcmp(amp_index_format(amp_index1(-5), buf, sizeof buf), "(-5)") == 0);
    REQUIRE(!amp_extent_valid(amp_extent2(-1, 3)));
    REQUIRE(!amp_extent_valid((amp_extent){4, {1, 1, 1}}));
    REQUIRE_INT(amp_extent_size(amp_extent2(-1, 3)), 0);
    REQUIRE(amp_extent_equal(amp_extent_from(2, (int[]){7, 8}), amp_extent2(7, 8)));
    /* formatting never overruns */
    REQUIRE(strlen(amp_extent_format(amp_extent3(100000, 200000, 300000), buf, 8)) == 7);
    return test_end();
}
