/** Minimal growable byte buffer with unsigned LEB128 varints (the detail blob's encoding). */
export class ByteWriter {
  private buf = Buffer.allocUnsafe(64);
  private len = 0;

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + extra));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  /** Empty again, keeping the buffer (one writer serves every record of a batch). */
  reset(): this {
    this.len = 0;
    return this;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buf[this.len++] = value & 0xff;
  }

  /** Non-negative safe integer. */
  varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.u8((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.u8(v);
  }

  /** Signed safe integer (zigzag). */
  svarint(value: number): void {
    this.varint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  bytes(data: Buffer): void {
    this.ensure(data.length);
    data.copy(this.buf, this.len);
    this.len += data.length;
  }

  /** `bytes` bytes from hex text; false (nothing counted) when the text is not that much hex. */
  hex(text: string, bytes: number): boolean {
    if (text.length !== 2 * bytes) return false;
    this.ensure(bytes);
    if (this.buf.write(text, this.len, bytes, 'hex') !== bytes) return false;
    this.len += bytes;
    return true;
  }

  str(text: string): void {
    const data = Buffer.from(text, 'utf8');
    this.varint(data.length);
    this.bytes(data);
  }

  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

export class ByteReader {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  u8(): number {
    const v = this.buf[this.pos++];
    if (v === undefined) throw new Error('history detail blob truncated');
    return v;
  }

  varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = this.u8();
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
  }

  svarint(): number {
    const v = this.varint();
    return v % 2 === 1 ? -(v + 1) / 2 : v / 2;
  }

  bytes(n: number): Buffer {
    if (this.pos + n > this.buf.length) throw new Error('history detail blob truncated');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  str(): string {
    return this.bytes(this.varint()).toString('utf8');
  }
}
