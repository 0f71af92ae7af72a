import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { shortMonthDay, weekdayMonthDay } from "./format";

// The analytics charts (recharts). Only the two analytics pages import this module, and they are lazy routes, so the
// charting library is downloaded with them and never with the shell (decision 068).

const AXIS = { fontSize: 12, fill: "var(--muted-foreground)" } as const;
const TOOLTIP_STYLE = {
  borderRadius: 8,
  border: "1px solid var(--border)",
  boxShadow: "0 4px 12px rgb(15 23 42 / 0.08)",
  fontSize: 13,
} as const;

/** Test drives per day of the period: one bar a day (the days without drives are shown too, as zero). */
export function DailyTestDrivesChart({ days }: { days: Array<{ date: string; count: number }> }) {
  const many = days.length > 14;
  return (
    <div role="img" aria-label={`Test drives per day: ${days.map((d) => `${shortMonthDay(d.date)} ${d.count}`).join(", ")}`} data-testid="daily-chart"
      className="min-w-0">
      <BarChart responsive style={{ width: "100%", height: 240 }} data={days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="date"
          tickFormatter={(d: string) => shortMonthDay(d)}
          tick={AXIS}
          tickLine={false}
          axisLine={{ stroke: "var(--border)" }}
          interval="preserveStartEnd"
          minTickGap={many ? 24 : 8}
        />
        <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} />
        <Tooltip
          cursor={{ fill: "var(--muted)" }}
          contentStyle={TOOLTIP_STYLE}
          labelFormatter={(d) => weekdayMonthDay(String(d))}
          formatter={(value) => [value, "Test drives"]}
        />
        <Bar dataKey="count" name="Test drives" fill="var(--primary)" radius={[4, 4, 0, 0]} maxBarSize={36} isAnimationActive={false} />
      </BarChart>
    </div>
  );
}

export interface RepActivity {
  name: string;
  leads: number;
  appointments: number;
  testDrives: number;
}

const SERIES = [
  { key: "leads", name: "Leads claimed", color: "var(--primary)" },
  { key: "appointments", name: "Appointments", color: "var(--success)" },
  { key: "testDrives", name: "Test drives", color: "var(--warning)" },
] as const;

/** Each rep's activity in the period, stacked: leads claimed, appointments scheduled, test drives taken. */
export function RepActivityChart({ reps }: { reps: RepActivity[] }) {
  const height = Math.max(160, reps.length * 40 + 64);
  return (
    <div
      role="img"
      aria-label={`Activity per sales rep: ${reps.map((r) => `${r.name} ${r.leads} leads, ${r.appointments} appointments, ${r.testDrives} test drives`).join("; ")}`}
      data-testid="rep-chart"
      className="min-w-0"
    >
      <BarChart responsive layout="vertical" style={{ width: "100%", height }} data={reps} margin={{ top: 4, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke="var(--border)" />
        <XAxis type="number" allowDecimals={false} tick={AXIS} tickLine={false} axisLine={{ stroke: "var(--border)" }} />
        <YAxis type="category" dataKey="name" tick={AXIS} tickLine={false} axisLine={false} width={112} />
        <Tooltip cursor={{ fill: "var(--muted)" }} contentStyle={TOOLTIP_STYLE} />
        <Legend iconType="circle" iconSize={8} itemSorter={null} wrapperStyle={{ fontSize: 12, paddingTop: 8 }} />
        {SERIES.map((s, i) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stackId="activity"
            fill={s.color}
            maxBarSize={22}
            radius={i === SERIES.length - 1 ? [0, 4, 4, 0] : 0}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </div>
  );
}
