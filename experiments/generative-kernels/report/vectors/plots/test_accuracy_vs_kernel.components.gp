# kexp plot; run `gnuplot test_accuracy_vs_kernel.components.gp` here to redraw test_accuracy_vs_kernel.components.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.components.svg'
set title 'test accuracy against components'
set xlabel 'components (kernel.components)'
set ylabel 'test accuracy (dashed: validation accuracy)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'Each point: the cell with the highest validation_accuracy over solver.lambda.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'Dashed: validation_accuracy on the training part, bars ± one standard deviation over the folds.' at screen 0.01, screen 0.0204 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1' 1, '2' 2, '4' 4, '8' 8)
set logscale x
$line0 << EOD
1 0.9916666666666667 0.9916666666666667 0.9916666666666667
2 0.9916666666666667 0.9916666666666667 0.9916666666666667
4 0.9944444444444445 0.9896331922011976 0.9992556966876913
8 0.9916666666666667 0.9833333333333334 1
EOD
$line1 << EOD
1 0.9895833333333334 0.9812500000000001 0.9979166666666667
2 0.9902777777777777 0.9835353474905998 0.9970202080649556
4 0.9909722222222221 0.984077636645642 0.9978668077988023
8 0.9930555555555555 0.9918527424947438 0.9942583686163672
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'fisher information=empirical · kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title '  validation'
