/** Export file naming lives in core (the CLI's `dlmm wallet` names its answers file the same way). */
export * from '../../../core/tx/naming';
