// The Prometheus text parser the metrics test reads /metrics with (the package ships no types).
declare module 'parse-prometheus-text-format' {
  interface Sample {
    value: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export default function parse(text: string): Array<{ name: string; help: string; type: string; metrics: Sample[] }>;
}
