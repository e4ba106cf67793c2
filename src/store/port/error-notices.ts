/** When an emitter's owner was last emailed about its errors. */
export interface ErrorNoticeStore {
  /** true when this caller may send the emitter's next error email (none in the last `gapMs`) */
  claim(emitterId: string, now: number, gapMs: number): Promise<boolean>;
}
