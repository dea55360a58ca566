/**
 * Output for people and machines: aligned tables, CSV, JSON, and PNG plots drawn with XChart.
 */
package org.qsnet.bench.report;
