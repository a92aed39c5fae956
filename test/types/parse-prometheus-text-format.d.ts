declare module 'parse-prometheus-text-format' {
  /** Prometheus text exposition to metric families (name, help, type, samples). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
