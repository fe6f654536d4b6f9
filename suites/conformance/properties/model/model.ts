/**
 * The model of the stateful test: the documents one run made (record-rest-api.md §2 IVVc/ORVc/QTVc) with
 * their key fields, item rows and OKFlag, whether they still exist, and the sequence numbers around their
 * writes (§4 rule 6, §6 change feed). Only records of the run are modelled; everything else on the target is
 * left alone (other tests write at the same time).
 */
import type { RestEnvelope, RestRecord } from '@erpcert/client';
import { fieldValue, type RuleContext, rowsOf, sequenceOf } from '../../src/harness/index.js';

/** The documents the model covers and the conversions between them (portal §4). */
export type DocRegister = 'IVVc' | 'ORVc' | 'QTVc';

/** One document of the run. */
export interface ModelDoc {
  readonly register: DocRegister;
  readonly serNr: string;
  /** The record's UUID (base registers, §2), '' when the target sends none. */
  readonly uuid: string;
  readonly custCode: string;
  /** Item rows as `ArtCode x Quant` (quantities as numbers). */
  items: string[];
  okFlag: '0' | '1';
  live: boolean;
  /** The sequence number just before the latest write of the record. */
  writtenAfter: bigint | undefined;
  /** The sequence number just before the record was deleted. */
  deletedAfter?: bigint | undefined;
  /** Order of the latest write among the run's writes. */
  writeOrder: number;
  /** A conversion took this document as its source (which may write it too). */
  converted?: boolean;
  /** Registers this document has been converted to: whether a source converts twice is not shown (§3, §4). */
  convertedTo?: string[];
}

/** The whole model of a run. */
export class DocModel {
  readonly docs: ModelDoc[] = [];
  /** The highest sequence number a write of the run answered. */
  lastSequence: bigint | undefined;
  #writes = 0;

  /** The next write order. */
  nextWrite(): number {
    this.#writes += 1;
    return this.#writes;
  }

  live(filter: (d: ModelDoc) => boolean = () => true): ModelDoc[] {
    return this.docs.filter((d) => d.live && filter(d));
  }

  /** The `n`-th (modulo) document that passes `filter`, or undefined. */
  pick(n: number, filter: (d: ModelDoc) => boolean): ModelDoc | undefined {
    const list = this.docs.filter(filter);
    return list.length === 0 ? undefined : list[n % list.length];
  }
}

/** What the commands act on: the test's context and the basis to build documents from. */
export interface DocReal {
  readonly ctx: RuleContext;
  readonly customer: string;
  readonly items: readonly string[];
  /** A usercode with the un-confirm permission, when configured (confirmed documents are made only then). */
  readonly unokUser: string | undefined;
  /** The usercode conversions run as (§4: required), when configured. */
  readonly convertUser: string | undefined;
}

/** Item rows of a record as the model keeps them. */
export function itemsOf(record: RestRecord | Readonly<Record<string, unknown>>): string[] {
  return rowsOf(record)
    .filter((r) => fieldValue(r, 'ArtCode') !== '')
    .map((r) => `${fieldValue(r, 'ArtCode')} x ${Number(fieldValue(r, 'Quant') || '0')}`);
}

/** The sequence number an answer reports (data@sequence, else its Sequence header: `sequenceOf`). */
export function answerSequence(env: RestEnvelope<string>): bigint | undefined {
  return sequenceOf(env);
}
