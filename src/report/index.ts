export type { BarChartSpec, BarSeries } from './bar-chart.js';
export { barChartSvg, renderBarChart } from './bar-chart.js';
export type { ChartIntervals, Interval } from './chart-intervals.js';
export { ChartLibraryError } from './errors.js';
export { escapeHtml } from './html.js';
export type { OutcomeRow } from './outcome-breakdown.js';
export { renderReport, reportChartSpecs } from './render-report.js';
export type { ReportData, ReportInput, ReportRun, RunFigures } from './report-data.js';
export { buildReportData } from './report-data.js';
export {
  isTournamentFile,
  renderTournamentReport,
  tournamentChartSpecs,
  writeTournamentReport,
  writeTournamentReportFile,
} from './tournament-report.js';
export type { WriteReportOptions, WriteReportResult } from './write-report.js';
export { writeReport } from './write-report.js';
