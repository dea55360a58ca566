package org.qsnet.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.awt.Color;

import org.junit.jupiter.api.Test;

class DrawingTest
{
    @Test
    void shouldColourZeroApartFromTheSmallestPositiveValue()
    {
        assertEquals(Color.WHITE, Drawing.colour(0, 3));
        final Color small = Drawing.colour(1e-6, 3);
        assertNotEquals(Color.WHITE, small);
        assertEquals(new Color(0xffffb2), small, "the palest colour of the bar");
        assertEquals(new Color(0xbd0026), Drawing.colour(3, 3), "the largest value: the darkest");
        assertNotEquals(Drawing.colour(1, 3), Drawing.colour(2, 3));
    }
}
