import type { ReactNode } from 'react';

// Static drawings of each chart type: the dashboard has no data behind it (spec §2), so no chart library.

function ChartCard({ title, kind, children }: { title: string; kind: string; children: ReactNode }) {
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs">
      <figcaption className="mb-4 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold text-slate-900">{title}</h2>
        <span className="text-xs text-slate-400">{kind} chart · sample data</span>
      </figcaption>
      <div className="h-48">{children}</div>
    </figure>
  );
}

const GRID = [40, 80, 120, 160].map((y) => (
  <line key={y} x1="0" x2="400" y1={y} y2={y} stroke="#e2e8f0" strokeWidth="1" />
));

export function MessageOverviewChart() {
  return (
    <ChartCard title="Message Overview" kind="Line">
      <svg viewBox="0 0 400 180" className="h-full w-full" preserveAspectRatio="none" aria-hidden="true">
        {GRID}
        <polyline
          fill="none"
          stroke="#059669"
          strokeWidth="3"
          points="0,140 50,120 100,128 150,90 200,96 250,60 300,72 350,40 400,50"
        />
        <polyline
          fill="none"
          stroke="#60a5fa"
          strokeWidth="3"
          strokeDasharray="6 4"
          points="0,160 50,150 100,152 150,130 200,126 250,110 300,116 350,92 400,98"
        />
      </svg>
    </ChartCard>
  );
}

export function MessageTypesChart() {
  // A donut of three slices, drawn with stroke dash offsets on one circle each.
  const slices = [
    { share: 0.55, colour: '#059669' },
    { share: 0.3, colour: '#60a5fa' },
    { share: 0.15, colour: '#fbbf24' },
  ];
  const circumference = 2 * Math.PI * 60;
  let offset = 0;
  return (
    <ChartCard title="Message Types" kind="Pie">
      <svg viewBox="0 0 400 180" className="h-full w-full" aria-hidden="true">
        <g transform="rotate(-90 200 90)">
          {slices.map(({ share, colour }) => {
            const dash = share * circumference;
            const circle = (
              <circle
                key={colour}
                cx="200"
                cy="90"
                r="60"
                fill="none"
                stroke={colour}
                strokeWidth="36"
                strokeDasharray={`${dash} ${circumference - dash}`}
                strokeDashoffset={-offset}
              />
            );
            offset += dash;
            return circle;
          })}
        </g>
      </svg>
    </ChartCard>
  );
}

export function EngagementRateChart() {
  const bars = [90, 120, 70, 140, 110, 150, 100];
  return (
    <ChartCard title="Engagement Rate" kind="Bar">
      <svg viewBox="0 0 400 180" className="h-full w-full" preserveAspectRatio="none" aria-hidden="true">
        {GRID}
        {bars.map((height, index) => (
          <rect
            key={index}
            x={20 + index * 55}
            y={180 - height}
            width="32"
            height={height}
            rx="4"
            fill="#10b981"
          />
        ))}
      </svg>
    </ChartCard>
  );
}

export function ResponseTimeChart() {
  return (
    <ChartCard title="Response Time" kind="Area">
      <svg viewBox="0 0 400 180" className="h-full w-full" preserveAspectRatio="none" aria-hidden="true">
        {GRID}
        <path
          d="M0,120 L50,100 L100,110 L150,70 L200,84 L250,58 L300,76 L350,50 L400,64 L400,180 L0,180 Z"
          fill="#a7f3d0"
          opacity="0.7"
        />
        <polyline
          fill="none"
          stroke="#059669"
          strokeWidth="2.5"
          points="0,120 50,100 100,110 150,70 200,84 250,58 300,76 350,50 400,64"
        />
      </svg>
    </ChartCard>
  );
}
