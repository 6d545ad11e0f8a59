/** A number field that hands on only whole numbers within its bounds; anything else typed waits for more input. */
export function IntegerInput({ label, value, min, max, step, onChange }: { label: string; value: number; min: number; max?: number; step?: number; onChange: (n: number) => void }) {
  return (
    <input
      type="number"
      min={min}
      max={max}
      step={step}
      aria-label={label}
      value={value}
      onInput={(e) => {
        const n = Number((e.target as HTMLInputElement).value);
        if (Number.isInteger(n) && n >= min && (max === undefined || n <= max)) onChange(n);
      }}
    />
  );
}
