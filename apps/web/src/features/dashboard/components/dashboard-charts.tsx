import type { ReactElement } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { DASHBOARD_CHARTS, type DashboardResponse } from '@herald/contracts';
import { formatCount, formatDay, formatDuration, formatPercent } from '../format';

type Days = DashboardResponse['days'];

// A fixed height: ResponsiveContainer only measures the width, so a chart fits a phone and draws in jsdom (the
// initial size is used until, or unless, a ResizeObserver reports one).
const HEIGHT = 220;
const INITIAL = { width: 400, height: HEIGHT };
// No animation: the figures are read, not watched, and a screenshot or a quick glance sees the final chart.
const COLOURS = ['#059669', '#0ea5e9', '#8b5cf6', '#f59e0b', '#64748b'];

/**
 * A chart with its title, what it plots, and a one-line summary of the same figures in words: what a screen
 * reader hears and what a test reads (never the SVG's pixels).
 */
function ChartCard({
  chart,
  kind,
  summary,
  children,
}: {
  chart: keyof typeof DASHBOARD_CHARTS;
  kind: string;
  summary: string;
  children: ReactElement;
}) {
  const { title, definition } = DASHBOARD_CHARTS[chart];
  return (
    <figure
      aria-label={title}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-xs"
      data-testid={`chart-${chart}`}
    >
      <figcaption className="mb-3">
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          <span className="text-xs text-slate-500">{kind} chart</span>
        </div>
        <p className="text-xs text-slate-500">{definition}</p>
        <p className="mt-1 text-sm text-slate-700" data-testid="chart-summary">
          {summary}
        </p>
      </figcaption>
      {/* The figure's caption says what the chart shows; the drawing is for the eye, and with no
          accessibility layer nothing in it takes focus. */}
      <div style={{ height: HEIGHT }} aria-hidden="true">
        <ResponsiveContainer width="100%" height={HEIGHT} initialDimension={INITIAL}>
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const sum = (days: Days, key: 'sent' | 'delivered' | 'read' | 'replied' | 'engaged') =>
  days.reduce((total, day) => total + day[key], 0);

const axisProps = { tick: { fontSize: 11, fill: '#64748b' }, tickLine: false, axisLine: false } as const;

export function MessageOverviewChart({ days }: { days: Days }) {
  const data = days.map((day) => ({ ...day, label: formatDay(day.date) }));
  // Tracked-link clicks, once there are any in the range (an older server leaves `clicked` out of every day).
  const clicks = days.some((day) => (day.clicked ?? 0) > 0);
  const clicked = days.reduce((total, day) => total + (day.clicked ?? 0), 0);
  return (
    <ChartCard
      chart="message_overview"
      kind="Line"
      summary={`${formatCount(sum(days, 'sent'))} sent, ${formatCount(sum(days, 'delivered'))} delivered, ${formatCount(sum(days, 'read'))} read${clicks ? `, ${formatCount(clicked)} clicked` : ''}`}
    >
      <LineChart accessibilityLayer={false} data={data} margin={{ top: 5, right: 10, left: -20, bottom: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" {...axisProps} minTickGap={16} />
        <YAxis allowDecimals={false} {...axisProps} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          type="monotone"
          dataKey="sent"
          name="Sent"
          isAnimationActive={false}
          stroke={COLOURS[0]}
          dot={false}
          strokeWidth={2}
        />
        <Line
          type="monotone"
          dataKey="delivered"
          isAnimationActive={false}
          name="Delivered"
          stroke={COLOURS[1]}
          dot={false}
          strokeWidth={2}
        />
        <Line
          type="monotone"
          dataKey="read"
          name="Read"
          isAnimationActive={false}
          stroke={COLOURS[2]}
          dot={false}
          strokeWidth={2}
        />
        {clicks ? (
          <Line
            type="monotone"
            dataKey="clicked"
            name="Clicked"
            isAnimationActive={false}
            stroke={COLOURS[3]}
            dot={false}
            strokeWidth={2}
          />
        ) : null}
      </LineChart>
    </ChartCard>
  );
}

export function MessageTypesChart({ categories }: { categories: DashboardResponse['categories'] }) {
  const label = (category: string) => category.charAt(0) + category.slice(1).toLowerCase();
  const data = categories.map((row) => ({ name: label(row.category), value: row.sent }));
  return (
    <ChartCard
      chart="message_types"
      kind="Pie"
      summary={
        data.length === 0
          ? 'No messages sent in this period'
          : data.map((row) => `${row.name} ${formatCount(row.value)}`).join(', ')
      }
    >
      <PieChart accessibilityLayer={false}>
        <Pie
          rootTabIndex={-1}
          data={data}
          dataKey="value"
          nameKey="name"
          innerRadius="45%"
          outerRadius="75%"
          isAnimationActive={false}
        >
          {data.map((row, index) => (
            <Cell
              key={row.name}
              fill={COLOURS[index % COLOURS.length]}
              // One category is a full ring: a white edge would draw a seam across it.
              stroke={data.length > 1 ? '#fff' : COLOURS[index % COLOURS.length]}
            />
          ))}
        </Pie>
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
      </PieChart>
    </ChartCard>
  );
}

export function EngagementRateChart({ days }: { days: Days }) {
  const data = days.map((day) => ({ label: formatDay(day.date), rate: day.engagement_rate }));
  const delivered = sum(days, 'delivered');
  return (
    <ChartCard
      chart="engagement_rate"
      kind="Bar"
      summary={
        delivered === 0
          ? 'Nothing delivered in this period'
          : `${formatCount(sum(days, 'engaged'))} of ${formatCount(delivered)} delivered engaged`
      }
    >
      <BarChart accessibilityLayer={false} data={data} margin={{ top: 5, right: 10, left: -20, bottom: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" {...axisProps} minTickGap={16} />
        <YAxis unit="%" domain={[0, 100]} {...axisProps} />
        <Tooltip formatter={(value) => formatPercent(Number(value))} />
        <Bar
          isAnimationActive={false}
          dataKey="rate"
          name="Engagement Rate"
          fill={COLOURS[0]}
          radius={[4, 4, 0, 0]}
        />
      </BarChart>
    </ChartCard>
  );
}

export function ResponseTimeChart({ days }: { days: Days }) {
  const data = days.map((day) => ({ label: formatDay(day.date), seconds: day.avg_response_seconds }));
  const answered = days.filter((day) => day.avg_response_seconds !== null);
  const replies = sum(days, 'replied');
  // The period's average weighs each day by its replies, as the card does.
  const average =
    replies > 0
      ? answered.reduce((total, day) => total + (day.avg_response_seconds ?? 0) * day.replied, 0) / replies
      : null;
  return (
    <ChartCard
      chart="response_time"
      kind="Area"
      summary={
        average === null
          ? 'No replies in this period'
          : `${formatCount(replies)} ${replies === 1 ? 'reply' : 'replies'}, ${formatDuration(average)} on average`
      }
    >
      <AreaChart accessibilityLayer={false} data={data} margin={{ top: 5, right: 10, left: 0, bottom: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" {...axisProps} minTickGap={16} />
        {/* Seconds on the axis, written as durations ('45s', '4m 32s'): no fractions of minutes. */}
        <YAxis
          allowDecimals={false}
          width={56}
          tickFormatter={(value: number) => formatDuration(value)}
          {...axisProps}
        />
        <Tooltip formatter={(value) => formatDuration(Number(value))} />
        <Area
          type="monotone"
          dataKey="seconds"
          isAnimationActive={false}
          name="Avg. response time"
          stroke={COLOURS[0]}
          fill="#a7f3d0"
          connectNulls
          // A day on its own has no neighbour to draw an area to: its dot shows it.
          dot={{ r: 3, fill: COLOURS[0] }}
        />
      </AreaChart>
    </ChartCard>
  );
}
